/**
 * `/widget.js`: the widget (widget.ts) as a classic script that attaches itself to every `input[data-address-hints]`
 * of the page. The service is the script's own origin unless its tag says `data-service`; `data-offline` on the tag
 * turns offline hints on for every input. `window.addressHintsWidget` holds `attach(input)` and `detach(input)`.
 */
import { attach, detach, setDefaults, start } from './widget.js';

const script = document.currentScript as HTMLScriptElement | null;
setDefaults({
  service: script?.dataset.service || (script?.src ? new URL(script.src, location.href).origin : location.origin),
  offline: script?.dataset.offline !== undefined && script.dataset.offline !== 'false',
  preload: script?.dataset.addressHintsPreload ?? '',
});

(window as unknown as { addressHintsWidget: unknown }).addressHintsWidget = { attach, detach };
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
