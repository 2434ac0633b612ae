/** Actions shared by the top bar, the selection page and the palette: log out and the role-dependent switches. */
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { normaliseUserType } from "../../common/roleKeys";
import { logout } from "../../providers/authProvider";
import { backToOperator, getCookie } from "../../providers/session";
import { HOME_PATH } from "./routes";
import { resetTabs } from "./tabs";
import { confirmDiscard, unsavedPages } from "./unsavedChanges";

export const SELECTION_PATH = "/secservice";

export function useShellActions() {
  const navigate = useNavigate();
  const loginType = normaliseUserType(getCookie("login_user_type") || getCookie("select_user_type"));
  const actingType = normaliseUserType(getCookie("select_user_type"));
  // logging out closes every page: their unsaved changes are asked about first
  const onLogout = useCallback(() => {
    confirmDiscard(unsavedPages(), () => void logout().then((to) => navigate(to, { replace: true })));
  }, [navigate]);
  const onSwitch = useCallback(() => navigate(SELECTION_PATH), [navigate]);
  // an operator acting in a provider goes back to the platform's console, as from the selection page: the
  // provider's pages close
  const onReturnToOperator = useCallback(() => {
    confirmDiscard(unsavedPages(), () => {
      backToOperator();
      resetTabs();
      navigate(HOME_PATH);
    });
  }, [navigate]);
  return {
    loginType,
    /** spec 2.4, 6: switch school for system, service and service_schadmin; switch provider for system only */
    canSwitchSchool: ["system", "service", "service_schadmin"].includes(loginType),
    canSwitchProvider: loginType === "system",
    /** an operator acting in a provider's scope */
    canReturnToOperator: loginType === "system" && actingType !== "system",
    onLogout,
    onSwitch,
    onReturnToOperator,
  };
}
