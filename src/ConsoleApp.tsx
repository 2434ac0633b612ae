/**
 * The console behind the login (lazy chunk): loads the user (navigation guard), then refine with the shell
 * routes, the catalogue's routes and resources.
 */
import { Refine, useInvalidateAuthStore } from "@refinedev/core";
import { Spin } from "antd";
import { lazy, Suspense, useEffect, useRef, type ReactElement } from "react";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router";
import { accessControlProvider } from "../providers/accessControl";
import { authProvider } from "../providers/authProvider";
import { dataProvider } from "../providers/dataProvider";
import { loadUserOrLogin } from "../providers/guard";
import { i18nProvider } from "../providers/i18n";
import { getToken } from "../providers/session";
import { REFINE_OPTIONS } from "./refineOptions";
import { catalogueResources, catalogueRouteElements } from "./engine";
import { useSessionUser } from "./lib/session";
import { Dashboard } from "./pages/Dashboard";
import { ErrorPage } from "./pages/ErrorPage";
import { RedirectPage } from "./pages/RedirectPage";
import { DOWNLOAD_PATH, HELP_PATH, HOME_PATH, NOTICES_PATH } from "./shell/routes";
import { ConsoleFeedback } from "./shell/ConsoleFeedback";
import { keptPageRouterProvider } from "./shell/keptPageRouter";
import { ShellLayout } from "./shell/ShellLayout";
import { SELECTION_PATH } from "./shell/useShellActions";

/** Pages inside the layout; paths relative to it. */
function pageRoutes(): ReactElement {
  return (
    <>
      <Route index element={<Navigate to={HOME_PATH} replace />} />
      <Route path={HOME_PATH.slice(1)} element={<Dashboard />} />
      <Route path="download" element={<Navigate to={DOWNLOAD_PATH} replace />} />
      <Route
        path={DOWNLOAD_PATH.slice(1)}
        element={
          <Suspense fallback={<Spin />}>
            <DownloadList />
          </Suspense>
        }
      />
      <Route
        path={NOTICES_PATH.slice(1)}
        element={
          <Suspense fallback={<Spin />}>
            <NoticeList />
          </Suspense>
        }
      />
      <Route
        path={HELP_PATH.slice(1)}
        element={
          <Suspense fallback={<Spin />}>
            <HelpCentre />
          </Suspense>
        }
      />
      <Route path="404" element={<ErrorPage status={404} />} />
      <Route path="401" element={<ErrorPage status={401} />} />
      {catalogueRouteElements()}
      <Route path="*" element={<Navigate to="/404" replace />} />
    </>
  );
}

/** Role switching changes the role keys: refine's cached permissions and identity must follow. */
function AuthStoreSync() {
  const roles = useSessionUser()?.roles;
  const invalidate = useInvalidateAuthStore();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void invalidate();
  }, [roles, invalidate]);
  return null;
}

// the selection page's, the download centre's, the notices' and the help centre's tables are not needed for the dashboard: their own chunks
const SelectionPage = lazy(() => import("./pages/SelectionPage"));
const DownloadList = lazy(() => import("./pages/DownloadList"));
const NoticeList = lazy(() => import("./pages/NoticeList"));
const HelpCentre = lazy(() => import("./pages/HelpCentre"));

const resources = catalogueResources();
const pages = pageRoutes();

export default function ConsoleApp() {
  const user = useSessionUser();
  const location = useLocation();
  const navigate = useNavigate();
  const hasToken = Boolean(getToken());
  const fullPath = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (user || !hasToken) return;
    let live = true;
    void loadUserOrLogin(fullPath).then((to) => live && to && navigate(to, { replace: true }));
    return () => {
      live = false;
    };
    // the user is loaded once per session, not per navigation
  }, [user, hasToken]);

  if (!user) return <Spin fullscreen />;

  return (
    <ConsoleFeedback>
      <Refine
        routerProvider={keptPageRouterProvider}
        dataProvider={dataProvider}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        i18nProvider={i18nProvider}
        resources={resources}
        options={REFINE_OPTIONS}
      >
        <AuthStoreSync />
        <Routes>
          <Route
            path={SELECTION_PATH}
            element={
              <Suspense fallback={<Spin fullscreen />}>
                <SelectionPage />
              </Suspense>
            }
          />
          <Route path="/redirect/*" element={<RedirectPage />} />
          <Route path="*" element={<ShellLayout pages={pages} />} />
        </Routes>
      </Refine>
    </ConsoleFeedback>
  );
}
