/**
 * Unsaved changes of the console's forms, per page (a page's tab key: its pathname). A form marks its page
 * when the user changes a value and clears the mark when it saves; whatever would discard marked pages asks
 * first: closing or refreshing their tabs, leaving a page the tabs view does not keep (by a link or by the
 * browser's back and forward buttons), leaving the console, and reloading or closing the browser tab
 * (beforeunload). A form in a dialog over its page asks before the dialog closes (`useGuardedClose`).
 *
 * Not refine's `warnWhenUnsavedChanges`: that is one flag for the whole console, cleared on every change of
 * path, and its notifier confirms every navigation. In the tabs view a form left for another page stays alive
 * in its tab with its values, so leaving it loses nothing; its changes are lost only when its tab closes, which
 * may happen later, from the tab bar, while another page is shown.
 */
import { useCallback, useContext, useEffect, useMemo, useRef } from "react";
import { UNSAFE_NavigationContext, useLocation, type Navigator, type To } from "react-router";
import { canReachPath } from "../../providers/accessControl";
import { feedback } from "../../providers/feedback";
import { i18n } from "../../providers/i18n";
import { useRoles } from "../lib/session";
import { settings } from "../lib/settings";
import { findRoute } from "./routes";
import { currentTabs } from "./tabs";

const unsaved = new Set<string>();

function onBeforeUnload(event: BeforeUnloadEvent): void {
  // the browser asks with its own words; the text is ignored by every current browser
  event.preventDefault();
  event.returnValue = "";
}

function changed(): void {
  // listening only while there is something to lose keeps the page eligible for the back/forward cache
  if (unsaved.size > 0) window.addEventListener("beforeunload", onBeforeUnload);
  else window.removeEventListener("beforeunload", onBeforeUnload);
}

/** Marks (or clears) the unsaved changes of a page. */
export function markUnsaved(key: string, value: boolean): void {
  if (value === unsaved.has(key)) return;
  if (value) unsaved.add(key);
  else unsaved.delete(key);
  changed();
}

/** The pages holding unsaved changes. */
export function unsavedPages(): string[] {
  return [...unsaved];
}

/** Whether any of the pages (every page when none are named) holds unsaved changes. */
export function hasUnsavedChanges(keys?: readonly string[]): boolean {
  return keys ? keys.some((key) => unsaved.has(key)) : unsaved.size > 0;
}

/** Forgets the unsaved changes of pages that are gone (every page when none are named). */
export function forgetUnsaved(keys?: readonly string[]): void {
  if (keys) keys.forEach((key) => unsaved.delete(key));
  else unsaved.clear();
  changed();
}

function pageTitle(key: string): string {
  const title = currentTabs().find((tab) => tab.key === key)?.title ?? findRoute(key)?.title;
  return title ? i18n.t(title) : key;
}

/**
 * Runs `proceed`, which discards the pages named, at once when none of them holds unsaved changes; otherwise
 * after the user has confirmed, in a dialog naming the pages whose changes would be lost.
 */
export function confirmDiscard(keys: readonly string[], proceed: () => void): void {
  const lost = keys.filter((key) => unsaved.has(key));
  if (lost.length === 0) {
    proceed();
    return;
  }
  feedback().confirm({
    title: i18n.t("shell.unsaved_title"),
    content: i18n.t("shell.unsaved_content", { pages: lost.map(pageTitle).join(i18n.t("shell.unsaved_separator")) }),
    okText: i18n.t("shell.unsaved_discard"),
    cancelText: i18n.t("shell.unsaved_stay"),
    onOk: () => {
      forgetUnsaved(lost);
      proceed();
    },
  });
}

export interface UnsavedChanges {
  /** the page's key (its pathname) */
  key: string;
  markDirty(): void;
  markClean(): void;
  isDirty(): boolean;
}

/**
 * The unsaved-changes mark of the page a form is on. A page hidden in a tab the tabs view keeps alive keeps its
 * mark; a page that is really gone (its tab closed, or a page the tabs view does not keep) loses it.
 */
export function useUnsavedChanges(): UnsavedChanges {
  const { pathname: key } = useLocation();
  useEffect(
    () => () => {
      const keptAlive = settings().tagsView && currentTabs().some((tab) => tab.key === key);
      if (!keptAlive) markUnsaved(key, false);
    },
    [key],
  );
  return useMemo(
    () => ({
      key,
      markDirty: () => markUnsaved(key, true),
      markClean: () => markUnsaved(key, false),
      isDirty: () => unsaved.has(key),
    }),
    [key],
  );
}

/**
 * The pages with unsaved changes a navigation from one path to another would discard: none while the tabs view
 * keeps every open page alive and the target is a page with a tab; without the tabs view the page left; every
 * page when the target unmounts the tabs (the selection page, an error page, a page out of reach).
 */
export function pagesLeftBehind(from: string, to: string, roles: readonly string[]): string[] {
  if (to === from) return [];
  if (!settings().tagsView) return unsaved.has(from) ? [from] : [];
  const route = findRoute(to);
  const keepsTabs = route !== undefined && !route.noTab && canReachPath(roles, to);
  return keepsTabs ? [] : unsavedPages();
}

function targetPathname(to: To, from: string): string {
  if (typeof to !== "string") return to.pathname ?? from;
  return new URL(to, `http://console${from}`).pathname;
}

/** The position in the session's history React Router's browser history gives each of its entries (none in memory). */
function historyIndex(): number | undefined {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === "number" ? idx : undefined;
}

/**
 * The browser's back and forward buttons: a move that would discard pages with unsaved changes is undone before
 * React Router hears of it, then made again once the user has confirmed. Listening in the capture phase on the
 * window runs before the router's own listener there, which then never sees the move (nor its undoing), so its
 * idea of the current entry stays right.
 */
function useBackForwardGuard(here: { readonly current: { pathname: string; roles: readonly string[] } }): void {
  const { key } = useLocation();
  const index = useRef<number | undefined>(undefined);
  useEffect(() => {
    index.current = historyIndex();
  }, [key]);
  useEffect(() => {
    let undoing = false;
    const onPopState = (event: PopStateEvent) => {
      if (undoing) {
        // the entry the user left is back: nothing moved for the router
        undoing = false;
        event.stopImmediatePropagation();
        return;
      }
      const from = index.current;
      const to = historyIndex();
      if (from === undefined || to === undefined || to === from) return;
      const lost = pagesLeftBehind(here.current.pathname, window.location.pathname, here.current.roles);
      if (lost.length === 0) return;
      event.stopImmediatePropagation();
      undoing = true;
      window.history.go(from - to);
      // once confirmed, the pages' changes are forgotten: the same move then passes
      confirmDiscard(lost, () => window.history.go(to - from));
    };
    window.addEventListener("popstate", onPopState, { capture: true });
    return () => window.removeEventListener("popstate", onPopState, { capture: true });
  }, [here]);
}

/**
 * The console layout's guard: every in-app navigation (sidebar, breadcrumb, search, palette, links, the pages'
 * own) and every move by the browser's back and forward buttons that would discard pages with unsaved changes
 * waits for the user's confirmation. Like refine's UnsavedChangesNotifier it wraps the router's navigator, which
 * a BrowserRouter cannot block otherwise. Once the layout is gone, so are its pages' changes.
 */
export function useLeaveGuard(): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const { pathname } = useLocation();
  const roles = useRoles();
  const here = useRef({ pathname, roles });
  here.current = { pathname, roles };
  useBackForwardGuard(here);
  useEffect(() => {
    const { push, replace } = navigator;
    const guarded =
      (navigate: Navigator["push"]): Navigator["push"] =>
      (to, state, options) => {
        const lost = pagesLeftBehind(here.current.pathname, targetPathname(to, here.current.pathname), here.current.roles);
        confirmDiscard(lost, () => navigate.call(navigator, to, state, options));
      };
    navigator.push = guarded(push);
    navigator.replace = guarded(replace);
    return () => {
      navigator.push = push;
      navigator.replace = replace;
    };
  }, [navigator]);
  useEffect(() => () => forgetUnsaved(), []);
}

/**
 * Closing a dialog that holds a form (by its X, Esc, a click on the mask or Cancel): at once when the user changed
 * nothing in it, otherwise after they have confirmed that the changes may go.
 */
export function confirmCloseDialog(changed: boolean, close: () => void): void {
  if (!changed) {
    close();
    return;
  }
  feedback().confirm({
    title: i18n.t("shell.unsaved_title"),
    content: i18n.t("shell.unsaved_dialog"),
    okText: i18n.t("shell.unsaved_discard"),
    cancelText: i18n.t("shell.unsaved_stay"),
    onOk: close,
  });
}

export interface GuardedDialog<A extends unknown[]> {
  /** the form's `onValuesChange`: the user changed a value (a value set by the program is no change) */
  markChanged(): void;
  /** the dialog's `onCancel` (its X, Esc, its mask, Cancel): asks first when a value was changed */
  onCancel(...args: A): void;
}

/**
 * A dialog holding a form, closed by `close`: its changes count from each opening, as the page forms' do (the values
 * the user changed, `onValuesChange`).
 */
export function useGuardedDialog<A extends unknown[]>(open: boolean, close: ((...args: A) => void) | undefined): GuardedDialog<A> {
  const changed = useRef(false);
  useEffect(() => {
    if (open) changed.current = false;
  }, [open]);
  const markChanged = useCallback(() => {
    changed.current = true;
  }, []);
  const onCancel = useCallback(
    (...args: A) =>
      confirmCloseDialog(changed.current, () => {
        changed.current = false;
        close?.(...args);
      }),
    [close],
  );
  return useMemo(() => ({ markChanged, onCancel }), [markChanged, onCancel]);
}
