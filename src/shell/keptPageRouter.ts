/**
 * refine's router for the tabs view. Every open tab stays mounted with its own fixed location (ShellLayout), and a
 * list writes its page, sorting and filters into the address of its own location (syncWithLocation). A tab
 * shown again does that write after its render, which may come after the user has already moved on to another
 * tab: the address would then jump back. So a page may rewrite its own address only while it is the one shown.
 */
import baseRouterProvider from "@refinedev/react-router";
import type { GoConfig, RouterProvider } from "@refinedev/core";
import { useCallback } from "react";
import { useLocation } from "react-router";

export const keptPageRouterProvider: RouterProvider = {
  ...baseRouterProvider,
  go: () => {
    const baseGo = baseRouterProvider.go!();
    // the location of the tab this hook lives in
    const { pathname } = useLocation();
    return useCallback(
      (config: GoConfig) => {
        const staysOnPage = !config.to && config.type !== "path";
        if (staysOnPage && window.location.pathname !== pathname) return undefined;
        return baseGo(config);
      },
      [baseGo, pathname],
    );
  },
};
