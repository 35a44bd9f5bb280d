// Start Browserless (installed by `./dev services`) on Debian's Chromium, for tests/services.py.
//
//   BROWSERLESS_HOME=<dir with node_modules/@browserless.io/browserless> CHROME=/usr/bin/chromium
//   PORT=3000 TOKEN=T PLAYWRIGHT_BROWSERS_PATH=<dir> node browserless.mjs
//
// Browserless looks for its browsers where Playwright would have downloaded them; the Chromium one is
// linked to CHROME here, and the routes of the browsers that are not installed (Chrome, Edge, Firefox,
// WebKit) are turned off, without which Browserless refuses to start.
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import { pathToFileURL } from 'url';

const home = process.env.BROWSERLESS_HOME;
const pkg = path.join(home, 'node_modules', '@browserless.io', 'browserless');
const require = createRequire(path.join(pkg, 'package.json'));
const { chromium } = require('playwright-core');
const wanted = chromium.executablePath(); // under PLAYWRIGHT_BROWSERS_PATH
fs.mkdirSync(path.dirname(wanted), { recursive: true });
try { fs.unlinkSync(wanted); } catch {}
fs.symlinkSync(process.env.CHROME || '/usr/bin/chromium', wanted);

const bl = await import(pathToFileURL(path.join(pkg, 'build', 'exports.js')).href);
const browserless = new bl.Browserless();
browserless.disableRoutes(
  ...Object.values(bl.BrowserlessChromeRoutes),
  ...Object.values(bl.BrowserlessEdgeRoutes),
  ...Object.values(bl.BrowserlessFirefoxRoutes),
  ...Object.values(bl.BrowserlessWebKitRoutes),
);
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.once(sig, async () => { await browserless.stop().catch(() => {}); process.exit(0); });
}
await browserless.start();
