/**
 * Mounts the catalogue's generic pages the way the console does (refine with the real data, auth and i18n
 * providers, the console's refine options, the catalogue resources and routes) at a given path; the current
 * location is shown in a probe, and the toasts shown are recorded.
 */
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { useNotificationProvider } from "@refinedev/antd";
import { App as AntdApp, message } from "antd";
import { render } from "@testing-library/react";
import { useEffect, type ReactElement } from "react";
import { MemoryRouter, Outlet, Route, Routes, useLocation } from "react-router";
import { authProvider } from "../../providers/authProvider";
import { dataProvider } from "../../providers/dataProvider";
import { registerFeedback } from "../../providers/feedback";
import { i18nProvider } from "../../providers/i18n";
import { catalogueResources, catalogueRouteElements } from "../../src/engine";
import { REFINE_OPTIONS } from "../../src/refineOptions";

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export interface ShownToasts {
  errors: string[];
  successes: string[];
}

/** Toasts of the weapi client and the pages, as the console registers them (providers/feedback.ts), recorded. */
function ToastBridge({ toasts }: { toasts: ShownToasts }) {
  const [api, holder] = message.useMessage();
  useEffect(
    () =>
      registerFeedback({
        error: (text, duration) => void (toasts.errors.push(text), api.error(text, duration)),
        warning: (text, duration) => void api.warning(text, duration),
        success: (text, duration) => void (toasts.successes.push(text), api.success(text, duration)),
        confirm: () => undefined,
      }),
    [api, toasts],
  );
  return holder;
}

/** `extraRoutes`: further routes beside the catalogue's, e.g. a page the catalogue does not mount yet. */
export function renderCrud(path: string, extraRoutes?: ReactElement) {
  const toasts: ShownToasts = { errors: [], successes: [] };
  const view = render(
    <AntdApp>
      <ToastBridge toasts={toasts} />
      <MemoryRouter initialEntries={[path]}>
        <Refine
          routerProvider={routerProvider}
          dataProvider={dataProvider}
          authProvider={authProvider}
          i18nProvider={i18nProvider}
          // refine's own notifications would show a failure a second time: the pages must keep them off
          notificationProvider={useNotificationProvider}
          resources={catalogueResources()}
          options={REFINE_OPTIONS}
        >
          <Routes>
            <Route path="/" element={<Outlet />}>
              {catalogueRouteElements()}
              {extraRoutes}
            </Route>
          </Routes>
          <LocationProbe />
        </Refine>
      </MemoryRouter>
    </AntdApp>,
  );
  return { ...view, toasts };
}
