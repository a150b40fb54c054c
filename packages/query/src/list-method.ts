// @listkit/query/list-method: the glue of a list method, for any server. Reads the list
// parameters of a request, writes the page back, and answers errors in Google's error model.
export {
  type BadRequestDetail,
  type ErrorInfoDetail,
  type GoogleError,
  type GoogleErrorOptions,
  type GoogleStatus,
  toGoogleError,
} from './list-method/google-error.js';
export {
  type Lister,
  type ListResponse,
  type ListResponseOptions,
  type RunListRequestOptions,
  runListRequest,
  toListResponse,
} from './list-method/list-response.js';
export type { ListDialect, ListStyle } from './list-method/list-style.js';
export type { ListExtras, MaskAndSkipOptions } from './list-method/mask-and-skip.js';
export {
  ListParameterError,
  type ListParameters,
  type ListRequestSource,
  type ReadListRequestOptions,
  readListRequest,
} from './list-method/read-list-request.js';
