/**
 * Subscription expiry (spec 4.2): days left = end date - today (Asia/Shanghai, dates only) + 1. Under 15 days
 * and above 0 a reminder with the day count, once per browser session (sessionStorage flag endtimeshow). At 0
 * or less the renewal dialog (school: quick renewal, provider: provider renewal) is held open without a close
 * icon on every load, until a renewal moves the end date: the session flag never lets an expired account in.
 */
import { Button, Modal, Space } from "antd";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { businessDay, daysLeft, expiryOffer } from "../../../common/term";

export const EXPIRY_SHOWN_FLAG = "endtimeshow";

// the dialogs and their QR library load only when a renewal is offered
const QuickRenewDialog = lazy(() => import("./QuickRenewDialog"));
const ProviderRenewDialog = lazy(() => import("./ProviderRenewDialog"));

function shownThisSession(): boolean {
  try {
    return window.sessionStorage.getItem(EXPIRY_SHOWN_FLAG) !== null;
  } catch {
    return false;
  }
}

function markShown(): void {
  try {
    window.sessionStorage.setItem(EXPIRY_SHOWN_FLAG, "1");
  } catch {
    // without storage the reminder may show again after a reload
  }
}

export interface ExpiryReminderProps {
  /** whose term: a school renews with packages or codes, a provider with its yearly fee or a code */
  kind: "school" | "provider";
  /** the term's end (school endtime, provider end_time); undefined while loading */
  endTime: string | undefined;
  sysid: string;
  /** after a renewal: reload the term */
  onRenewed: () => void;
  /** injected clock for tests */
  now?: () => Date;
}

export function ExpiryReminder({ kind, endTime, sysid, onRenewed, now = () => new Date() }: ExpiryReminderProps) {
  const { t } = useTranslation();
  const [days, setDays] = useState<number | null>(null);
  const [reminderOpen, setReminderOpen] = useState(false);
  const [renewOpen, setRenewOpen] = useState(false);
  // mounted from the first opening on: its result dialog outlives it
  const [renewMounted, setRenewMounted] = useState(false);
  const openRenewal = () => {
    setRenewMounted(true);
    setRenewOpen(true);
  };

  const left = endTime ? daysLeft(endTime, businessDay(now())) : null;
  // derived on every render: a reload, or a term read again, cannot lose it
  const forced = expiryOffer(left) === "forced";

  useEffect(() => {
    if (forced) {
      // the reminder would only repeat what the forced dialog says
      markShown();
      setRenewMounted(true);
      return;
    }
    if (left === null || expiryOffer(left) !== "reminder" || shownThisSession()) return;
    markShown();
    setDays(left);
    setReminderOpen(true);
    // evaluated when the term is known and each time it is read again
  }, [endTime, forced]);

  // after a forced renewal the dialog stays mounted: its result dialog outlives it
  if (days === null && !forced && !renewMounted) return null;
  const renewProps = { open: renewOpen || forced, onClose: () => setRenewOpen(false), onRenewed, closable: !forced };

  return (
    <>
      <Modal
        title={t("renewal.reminder_title")}
        open={reminderOpen}
        onCancel={() => setReminderOpen(false)}
        width={400}
        data-testid="expiry-reminder"
        footer={
          <Space>
            <Button
              data-testid="expiry-renew-now"
              onClick={() => {
                setReminderOpen(false);
                openRenewal();
              }}
            >
              {t("renewal.renew_now")}
            </Button>
            <Button type="primary" data-testid="expiry-reminder-ok" onClick={() => setReminderOpen(false)}>
              {t("renewal.acknowledge")}
            </Button>
          </Space>
        }
      >
        <p data-testid="expiry-reminder-days">{t("renewal.reminder_days", { days })}</p>
      </Modal>
      {(renewMounted || forced) && (
        <Suspense fallback={null}>
          {kind === "school" ? <QuickRenewDialog {...renewProps} /> : <ProviderRenewDialog {...renewProps} sysid={sysid} />}
        </Suspense>
      )}
    </>
  );
}
