import { expect, type Page, type TestInfo } from "@playwright/test";

/** The widths every dashboard page is checked at: a laptop and a phone (an iPhone's 390 CSS pixels). */
export const WIDTHS = [1440, 390] as const;

/**
 * Shows the current page at each width, attaches a full-page screenshot of each to the report, and
 * fails when the document is wider than the viewport (something forces a horizontal scroll). A wide
 * table may scroll inside its own box; the page itself never does.
 */
export async function checkWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // Let the layout settle after the resize (media queries, charts measuring their box).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const overflow = await page.evaluate(() => {
      const doc = document.documentElement;
      const wider = [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
        .filter((el) => !el.closest("[data-scroll-x]") && getComputedStyle(el).position !== "fixed")
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].slice(0, 3).join(".")}`);
      return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, wider };
    });
    await testInfo.attach(`${name}-${width}.png`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    expect(overflow.scrollWidth, `${name} at ${width}px scrolls sideways; too wide: ${overflow.wider.join(", ")}`).toBeLessThanOrEqual(
      overflow.clientWidth,
    );
  }
  if (original) await page.setViewportSize(original);
}
