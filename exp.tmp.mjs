import { chromium } from 'playwright-core';
const args = ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync','--enable-unsafe-swiftshader','--use-angle=swiftshader'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(process.argv[2]);
await page.waitForTimeout(4000);
const variants = [[], ['segments'], ['fade'], ['composite'], ['fade', 'segments'], ['fade', 'segments', 'composite'], ['step'], []];
for (const skip of variants) {
  await page.evaluate((skip) => window.isobar.render().setDebug({ skip }), skip);
  await page.waitForTimeout(1500);
  const s = await page.evaluate(async () => window.isobar.render().stats());
  console.log(JSON.stringify(skip).padEnd(40), 'fps', s.fps, 'cpu p50', s.frameMsP50.toFixed(2));
}
await browser.close();
