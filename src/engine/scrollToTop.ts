/** Spec 2.4 / 9: after a page change the view scrolls back to the top in 800 ms. */
export const SCROLL_TOP_MS = 800;

function easeInOutQuad(t: number): number {
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
}

/** Smoothly scrolls the document to the top over `duration` ms (easing like the original console). */
export function scrollToTop(duration: number = SCROLL_TOP_MS): void {
  const scroller = document.scrollingElement ?? document.documentElement;
  const from = scroller.scrollTop;
  if (from <= 0) return;
  const started = performance.now();
  const step = () => {
    // performance.now(), not the frame timestamp: a frame may start before `started`
    const progress = Math.min(1, Math.max(0, (performance.now() - started) / duration));
    scroller.scrollTop = from * (1 - easeInOutQuad(progress));
    if (progress < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}
