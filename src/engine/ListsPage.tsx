/**
 * A page of several lists (PageRef `lists`: the after-sales list): a switch at its top between its parts, each the
 * engine's list of its entity (its state tabs with their counts, columns, filters and row actions) under the filters
 * the part always sends. The address's `part` names the part shown, else the one the route opens first: a reload
 * or the browser's back finds it again, and choosing another starts that one afresh (its own tab, filters and page).
 * An option carries the count of its records waiting for the user's decision, as the menu's badges do, so what waits
 * in the part not shown is seen too. The parts the user's roles may not list are left out.
 */
import { Badge, Grid, Segmented } from "antd";
import { useTranslation } from "@refinedev/core";
import { useSearchParams } from "react-router";
import type { ListPart, MenuGroup, PageRef } from "../../common/catalogue";
import { firstPart } from "../../common/menu";
import { hasAnyRole } from "../../common/roleKeys";
import { entityByName } from "../../resources.config";
import { useRoles } from "../lib/session";
import { useWaitingCounts } from "../lib/waiting";
import { resourceIdentifier } from "./builtPages";
import CrudList from "./CrudList";

/** the address's parameter naming the part shown */
export const PART_PARAM = "part";

export default function ListsPage({ page, group }: { page: Extract<PageRef, { kind: "lists" }>; group: MenuGroup }) {
  const { translate } = useTranslation();
  const roles = useRoles();
  const waiting = useWaitingCounts();
  const [params, setParams] = useSearchParams();
  // below lg (992 px), as the lists' cards: the switch takes the whole width
  const narrow = Grid.useBreakpoint().lg === false;
  const parts = page.parts.filter((part) => hasAnyRole(roles, entityByName(part.entity)?.roles.list ?? []));
  const first = firstPart(page);
  const shown = parts.find((part) => part.key === params.get(PART_PARAM)) ?? (parts.includes(first) ? first : parts[0]);
  if (!shown) return null;
  const waitingIn = (part: ListPart) => waiting.filter((count) => count.entity === part.entity).reduce((sum, count) => sum + count.count, 0);
  const header = parts.length > 1 && (
    <Segmented
      value={shown.key}
      // a new entry in the history, without the other part's filters and page: back returns to them
      onChange={(key) => setParams({ [PART_PARAM]: String(key) })}
      block={narrow}
      style={{ marginBottom: 16 }}
      data-testid="list-parts"
      options={parts.map((part) => ({
        value: part.key,
        label: (
          // on a phone a long name wraps rather than be cut (Solicitudes de reembolso de cuotas)
          <span data-testid={`list-part-${part.key}`} style={narrow ? { display: "inline-block", whiteSpace: "normal", lineHeight: 1.35, paddingBlock: 4 } : undefined}>
            {translate(part.title)}
            <Badge count={waitingIn(part)} size="small" overflowCount={99} style={{ marginInlineStart: 6 }} title={translate("dashboard.waiting_badge", { count: waitingIn(part) })} data-testid={`list-part-waiting-${part.key}`} />
          </span>
        ),
      }))}
    />
  );
  return <CrudList key={shown.key} resource={resourceIdentifier(shown.entity, group)} header={header} />;
}
