import { chromium } from 'playwright-core';
const args = ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync','--enable-unsafe-swiftshader','--use-angle=swiftshader'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
page.on('worker', (w) => w.on('console', (m) => { if (m.type() !== 'log') console.log('worker', m.type(), m.text()); }));
await page.goto(process.argv[2]);
await page.waitForTimeout(5000);
for (let i = 0; i < 3; i++) {
  const s = await page.evaluate(async () => window.isobar.render().stats());
  console.log(JSON.stringify({ fps: s.fps, p50: s.frameMsP50.toFixed(2), p95: s.frameMsP95.toFixed(2), step: s.stepMsP50.toFixed(3), n: s.particles }));
  await page.waitForTimeout(1000);
}
if (process.argv[3]) await page.screenshot({ path: process.argv[3] });
await browser.close();
