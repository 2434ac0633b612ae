/** /redirect/{path} (spec 2.1): re-opens {path}, which re-mounts its page. */
import { Navigate, useLocation } from "react-router";

export function RedirectPage() {
  const { pathname, search } = useLocation();
  const target = pathname.replace(/^\/redirect/, "") || "/";
  return <Navigate to={`${target}${search}`} replace />;
}
