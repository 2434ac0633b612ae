/**
 * Recharge (custom page "recharge", /school/recharge and /schoolv2/recharge): a school renews its
 * subscription with a package (QR payment) or an activation code. A provider user first chooses one of its
 * schools.
 */
import { Card, Descriptions, Form, Space, Spin } from "antd";
import { useCallback, useState } from "react";
import { useOne } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { normaliseUserType } from "../../../common/roleKeys";
import { getCookie } from "../../../providers/session";
import { sessionSchool, type SchoolRef } from "../../shell/renewal/api";
import { ActivationCodeForm, MealPackages, useMealPackages, useSchoolRenewal } from "../../shell/renewal/SchoolRenewal";
import { useTermReload } from "../../shell/renewal/termReload";
import type { CustomPageProps } from "..";
import { RemoteSelect, type RemoteRecord } from "../../engine/RemoteSelect";

/** The school's current term end (schoolinfo through refine, shared with the shell's scope), read again by `reload`. */
function useSchoolEndTime(school: SchoolRef | null): { endTime?: string; reload: () => void } {
  const { result, query } = useOne<{ endtime?: string }>({
    resource: "school",
    id: school?.sch_id ?? "",
    queryOptions: { enabled: Boolean(school?.sch_id) },
    errorNotification: false,
  });
  const { refetch } = query;
  return { endTime: school?.sch_id ? result?.endtime : undefined, reload: useCallback(() => void refetch(), [refetch]) };
}

export default function RechargePage({ entry }: CustomPageProps) {
  const { t } = useTranslation();
  const ownSchool = normaliseUserType(getCookie("select_user_type")) === "school";
  const sysid = getCookie("select_sysid");
  const [chosen, setChosen] = useState<RemoteRecord | undefined>();
  const school: SchoolRef | null = ownSchool ? sessionSchool() : chosen ? { sch_id: String(chosen.id), sysid } : null;
  const term = useSchoolEndTime(school);
  const reloadShellTerm = useTermReload();
  const renewal = useSchoolRenewal(school, () => {
    term.reload();
    // the shell shows the own school's end, and a provider's chosen school on the dashboard
    reloadShellTerm();
  });
  const meals = useMealPackages();

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="recharge-page">
      <Card title={t(entry.title)}>
        {!ownSchool && (
          <Form layout="inline" style={{ marginBottom: 16 }}>
            <Form.Item label={t("renewal.school")} required>
              <RemoteSelect
                operation="schoollist"
                payload={{ sysid }}
                value={chosen ? String(chosen.id) : undefined}
                onChange={(_, record) => setChosen(record)}
                placeholder={t("renewal.choose_school")}
                style={{ minWidth: 260 }}
                data-testid="recharge-school"
              />
            </Form.Item>
          </Form>
        )}
        {school && (
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t("renewal.current_end")}>
              <span data-testid="recharge-end">{term.endTime ?? "-"}</span>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      {school && (
        <>
          <Card title={t("renewal.tab_packages")}>
            {meals ? <MealPackages meals={meals} onBuy={renewal.buy} buying={renewal.buying} /> : <Spin style={{ display: "block", margin: "24px auto" }} />}
          </Card>
          <Card title={t("renewal.tab_code")}>
            <ActivationCodeForm onSubmit={renewal.redeem} />
          </Card>
        </>
      )}
      {renewal.dialogs}
    </Space>
  );
}
