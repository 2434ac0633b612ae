/**
 * The home page's cards of what waits for the user's decision (`waitingcounts`, read with the sidebar's badges):
 * refund requests for a provider, channels submitted for the platform's operators. A card leads in one click to
 * the one waiting longest where the user's menu has its record page (a channel's review), else to the list of
 * those waiting (the after-sales list); an operator on the platform's console, whose channel reviews are the
 * provider's pages, is switched into that channel's provider on the way.
 */
import { Card, theme } from "antd";
import { RightOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { normaliseUserType } from "../../common/roleKeys";
import { waitingEntries, type WaitingCount } from "../../common/waiting";
import { enterProvider, getCookie, rolesFromCookies, type ProviderFacts } from "../../providers/session";
import { weapi } from "../../providers/weapi";
import { entityByName, menus } from "../../resources.config";
import { useRoles } from "../lib/session";
import { useWaitingCounts } from "../lib/waiting";
import { refreshTab, resetTabs } from "../shell/tabs";
import { recordRoute } from "./dashboardLinks";

/** Where a card leads within the user's menu: the longest-waiting record's page, else the list of those waiting. */
function waitingRoute(count: WaitingCount, roles: readonly string[]): { route: string; record: boolean } | undefined {
  const record = count.first ? recordRoute(count.entity, count.first.id, roles) : undefined;
  if (record) return { route: record, record: true };
  const list = waitingEntries(menus, roles, count, entityByName(count.entity)?.stateField)[0];
  return list ? { route: list, record: false } : undefined;
}

/** An operator on the platform's console enters the provider of the record, then opens the record there. */
async function openInProvider(count: WaitingCount, navigate: (to: string) => void): Promise<void> {
  const res = await weapi<{ items?: ProviderFacts }>("adminapiv2", "serviceinfo", { id: count.first!.sysid }).catch(() => null);
  if (res?.return_code !== "SUCCESS" || !res.data?.items) return;
  enterProvider(res.data.items);
  resetTabs();
  const target = waitingRoute(count, rolesFromCookies());
  if (target) navigate(target.route);
}

function WaitingCard({ count }: { count: WaitingCount }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const roles = useRoles();
  const navigate = useNavigate();
  const title = t(`dashboard.waiting.${count.key}`);
  const target = count.count > 0 ? waitingRoute(count, roles) : undefined;
  const switches = !target && count.count > 0 && count.first !== null && normaliseUserType(getCookie("select_user_type")) === "system";
  const open = target
    ? () => {
        // a page already open in a tab shows the records as they are now
        refreshTab(target.route);
        navigate(target.route);
      }
    : switches
      ? () => void openInProvider(count, navigate)
      : undefined;
  return (
    <Card
      size="small"
      hoverable={Boolean(open)}
      onClick={open}
      role={open ? "link" : undefined}
      tabIndex={open ? 0 : undefined}
      onKeyDown={open ? (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), open()) : undefined}
      aria-label={open ? t("dashboard.open", { title }) : undefined}
      style={{ height: "100%", cursor: open ? "pointer" : undefined }}
      data-testid={`dashboard-waiting-${count.key}`}
    >
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "flex-start", gap: 8, color: token.colorTextSecondary }}>
        <span>{title}</span>
        {open && <RightOutlined style={{ fontSize: 12, marginTop: 5, color: token.colorTextTertiary }} />}
      </div>
      <div
        style={{ fontSize: "clamp(17px, 4.6vw, 24px)", lineHeight: "36px", marginTop: 4, color: count.count > 0 ? token.colorWarning : token.colorText, fontVariantNumeric: "tabular-nums" }}
        data-testid={`dashboard-waiting-${count.key}-value`}
      >
        {count.count.toLocaleString(i18n.language)}
      </div>
      {open && (
        <div style={{ fontSize: token.fontSizeSM, color: token.colorTextTertiary }} data-testid={`dashboard-waiting-${count.key}-next`}>
          {t(target?.record === false ? "dashboard.waiting_open_list" : "dashboard.waiting_open_first")}
        </div>
      )}
    </Card>
  );
}

/** One card per decision the user may take, in the figures' grid. */
export function DashboardWaiting() {
  const counts = useWaitingCounts();
  return (
    <>
      {counts.map((count) => (
        <WaitingCard key={count.key} count={count} />
      ))}
    </>
  );
}
