import { InputError } from '../../contract/errors.js';

/** Bad or unreadable trace input: the message names the file and what is wrong (front-ends show it as one line). */
export class TraceInputError extends InputError {}
