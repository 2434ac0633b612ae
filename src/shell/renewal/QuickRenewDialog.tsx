/**
 * Quick renewal of a school (spec 2.4, 4.3): a packages tab (title, fee, buy) and an activation-code tab.
 * Keep it mounted while closed: the payment result outlives the dialog. Forced (not closable) when the term
 * has run out.
 */
import { Spin, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { sessionSchool, type SchoolRef } from "./api";
import { RenewalModal } from "./RenewalModal";
import { ActivationCodeForm, MealPackages, useMealPackages, useSchoolRenewal, type SchoolRenewal } from "./SchoolRenewal";

export interface QuickRenewDialogProps {
  open: boolean;
  onClose: () => void;
  /** after a renewal: reload the school's expiry */
  onRenewed: () => void;
  /** false: no close icon, no mask or Esc closing (the term has run out) */
  closable?: boolean;
  school?: SchoolRef;
}

function Packages({ buy, buying }: Pick<SchoolRenewal, "buy" | "buying">) {
  const meals = useMealPackages();
  if (!meals) return <Spin style={{ display: "block", margin: "24px auto" }} />;
  return <MealPackages meals={meals} onBuy={buy} buying={buying} />;
}

export default function QuickRenewDialog({ open, onClose, onRenewed, closable = true, school = sessionSchool() }: QuickRenewDialogProps) {
  const { t } = useTranslation();
  const renewal = useSchoolRenewal(school, () => {
    onClose();
    onRenewed();
  });
  return (
    <>
      <RenewalModal title={t("renewal.quick_title")} open={open} onCancel={onClose} closable={closable} width={640} data-testid="renew-dialog">
        <Tabs
          items={[
            {
              key: "packages",
              label: <span data-testid="renew-tab-packages">{t("renewal.tab_packages")}</span>,
              children: open && <Packages buy={renewal.buy} buying={renewal.buying} />,
            },
            {
              key: "code",
              label: <span data-testid="renew-tab-code">{t("renewal.tab_code")}</span>,
              children: <ActivationCodeForm onSubmit={renewal.redeem} />,
            },
          ]}
        />
      </RenewalModal>
      {renewal.dialogs}
    </>
  );
}
