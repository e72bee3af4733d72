import { appLayerSmallRequests } from '../families/app-layer-small-requests.js';

/** D10: small writes judged at the layer the application calls (default mode; supersedes P06 and P16). */
export default appLayerSmallRequests('D10', 'write', ['P06', 'P16']);
