// The inspector's routes beside the admin table: its page and files (no token: the page asks for
// it), its event stream (the token as a header or `?token=`), and `GET /`, the way in.
import type Router from '@koa/router';
import type { Mock } from '../exchange/mock.js';
import { eventStream } from './event-stream.js';
import { indexRoute } from './index-route.js';
import { uiFile, uiPage, uiSettings, uiVendorFile } from './inspector-files.js';

export function inspectorRoutes(router: Router, mock: Mock): void {
  router.get('/__admin/events', eventStream(mock));
  router.get(['/__admin/ui', '/__admin/ui/'], uiPage());
  router.get('/__admin/ui/settings.json', uiSettings(mock));
  router.get('/__admin/ui/vendor/:file', uiVendorFile());
  router.get('/__admin/ui/:file', uiFile());
  router.get('/', indexRoute());
}
