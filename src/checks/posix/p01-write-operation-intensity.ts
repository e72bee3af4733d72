import { operationIntensity } from '../families/operation-intensity.js';

/** P01: more POSIX write operations than reads (INFO). */
export default operationIntensity('P01', 'write', 'operations');
