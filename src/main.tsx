/**
 * Entry: public routes (login) stay small; the console shell (refine, layout, search, palette, QR) is a lazy
 * chunk loaded only behind a token (DESIGN 10 budget for the login page).
 */
import { lazy, StrictMode, Suspense } from "react";
import { createRoot, type Root } from "react-dom/client";
import { BrowserRouter, Navigate, Route, Routes, useLocation } from "react-router";
import { Spin, unstableSetRender } from "antd";
import { currentLanguage, i18nReady } from "../providers/i18n";
import { guardDecision } from "../providers/guard";
import { getToken } from "../providers/session";
import { AppProviders } from "./AppProviders";
import { loadAntdLocale } from "./lib/antdLocale";
import "./index.css";
import { LoginPage } from "./pages/LoginPage";

// antd 5 renders wave effects and static popups with the legacy ReactDOM.render unless given a React 19 root
// (this is what @ant-design/v5-patch-for-react-19 does)
const popupRoots = new WeakMap<Element | DocumentFragment, Root>();
unstableSetRender((node, container) => {
  let root = popupRoots.get(container);
  if (!root) {
    root = createRoot(container);
    popupRoots.set(container, root);
  }
  root.render(node);
  return async () => {
    // let the current render finish before unmounting
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    popupRoots.delete(container);
  };
});

const ConsoleApp = lazy(() => import("./ConsoleApp"));
const RegisterPages = lazy(() => import("./pages/register/RegisterPages"));

/** Token-level decisions of the guard; loading the user happens inside the console. */
function Guarded({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  const decision = guardDecision({
    pathname: location.pathname,
    fullPath: `${location.pathname}${location.search}`,
    hasToken: Boolean(getToken()),
    hasRoles: true,
  });
  if (decision.kind === "redirect") return <Navigate to={decision.to} replace />;
  return <>{children}</>;
}

function KeepQueryTo({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}

function Root() {
  return (
    <Routes>
      <Route path="/login" element={<Guarded><LoginPage /></Guarded>} />
      <Route path="/loginv1" element={<Guarded><LoginPage /></Guarded>} />
      {/* a provider's application, and its own page followed by its link */}
      <Route path="/register/*" element={<Suspense fallback={<Spin fullscreen />}><RegisterPages /></Suspense>} />
      {/* third-party sign-in lands on the login form */}
      <Route path="/auth-redirect" element={<KeepQueryTo to="/login" />} />
      <Route
        path="*"
        element={
          <Guarded>
            <Suspense fallback={<Spin fullscreen />}>
              <ConsoleApp />
            </Suspense>
          </Guarded>
        }
      />
    </Routes>
  );
}

// the texts of the chosen language (ours, antd's and dayjs') come before the first render
void Promise.all([i18nReady, loadAntdLocale(currentLanguage())]).then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <BrowserRouter>
        <AppProviders>
          <Root />
        </AppProviders>
      </BrowserRouter>
    </StrictMode>,
  ),
);
