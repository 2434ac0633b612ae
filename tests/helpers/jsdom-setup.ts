import { configure } from "@testing-library/react";

/** Whether a width query such as "(min-width: 992px)" holds for the window's width (jsdom: 1024 unless a test sets it). */
function widthQueryMatches(query: string): boolean {
  const min = /min-width:\s*(\d+(?:\.\d+)?)px/.exec(query);
  const max = /max-width:\s*(\d+(?:\.\d+)?)px/.exec(query);
  if (!min && !max) return false;
  const width = window.innerWidth;
  return (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
}

// jsdom lacks matchMedia, which antd's responsive hooks (Grid.useBreakpoint) call: width queries answer for the
// window's width, so pages lay out as on a desktop unless a test narrows the window.
if (typeof window !== "undefined" && !window.matchMedia) {
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    value: (query: string) => ({
      matches: widthQueryMatches(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// The first render of an antd page takes longer than testing-library's 1 s default on a busy two-core machine;
// waits still end as soon as their condition holds.
configure({ asyncUtilTimeout: 5000 });
