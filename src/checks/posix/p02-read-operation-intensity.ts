import { operationIntensity } from '../families/operation-intensity.js';

/** P02: more POSIX read operations than writes (INFO). */
export default operationIntensity('P02', 'read', 'operations');
