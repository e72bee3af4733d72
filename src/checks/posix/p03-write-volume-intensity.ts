import { operationIntensity } from '../families/operation-intensity.js';

/** P03: more POSIX bytes written than read (INFO). */
export default operationIntensity('P03', 'write', 'bytes');
