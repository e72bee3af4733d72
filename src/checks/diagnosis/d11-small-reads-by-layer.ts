import { appLayerSmallRequests } from '../families/app-layer-small-requests.js';

/** D11: small reads judged at the layer the application calls (default mode; supersedes P05 and P15). */
export default appLayerSmallRequests('D11', 'read', ['P05', 'P15']);
