import { operationIntensity } from '../families/operation-intensity.js';

/** P04: more POSIX bytes read than written (INFO). */
export default operationIntensity('P04', 'read', 'bytes');
