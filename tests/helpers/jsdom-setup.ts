import { configure } from "@testing-library/react";

// jsdom lacks matchMedia, which antd's responsive hooks call.
if (typeof window !== "undefined" && !window.matchMedia) {
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    value: (query: string) => ({
      matches: false,
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
