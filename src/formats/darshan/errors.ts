import { FormatError } from '../../contract/errors.js';

/**
 * A Darshan log that cannot be read: not a log, an unsupported version, a truncated or corrupt region.
 * `message` is one line meant for the user (darshan-parser's wording where it has one).
 */
export class DarshanFormatError extends FormatError {}
