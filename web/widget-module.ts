/**
 * `build/web/widget.mjs` (served at `/web/widget.mjs`): the widget (widget.ts) as an ES module. It attaches nothing
 * by itself: `attach(input)` turns one input into the widget, `detach(input)` undoes it, `start()` attaches every
 * `input[data-address-hints]` of the page, now and as they are added. The service is the origin the module was
 * loaded from; an input's `data-service` names another (needed when the module is bundled into a page's own code).
 */
import { setDefaults } from './widget.js';

export { attach, detach, start } from './widget.js';

setDefaults({ service: new URL(import.meta.url).origin });
