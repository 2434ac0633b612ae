/**
 * Subscription expiry (spec 4.2): days left = end date - today (Asia/Shanghai, dates only) + 1. Once per
 * browser session (sessionStorage flag endtimeshow): under 15 days and above 0 a reminder with the day count;
 * 0 or less the renewal dialog opens without a close icon (school: quick renewal, provider: provider renewal).
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

  useEffect(() => {
    if (!endTime || shownThisSession()) return;
    const left = daysLeft(endTime, businessDay(now()));
    const offer = expiryOffer(left);
    if (offer === "none") return;
    markShown();
    setDays(left);
    if (offer === "reminder") setReminderOpen(true);
    else openRenewal();
    // evaluated once, when the term is first known
  }, [endTime]);

  if (days === null) return null;
  const closable = days > 0;
  const renewProps = { open: renewOpen, onClose: () => setRenewOpen(false), onRenewed, closable };

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
      {renewMounted && (
        <Suspense fallback={null}>
          {kind === "school" ? <QuickRenewDialog {...renewProps} /> : <ProviderRenewDialog {...renewProps} sysid={sysid} />}
        </Suspense>
      )}
    </>
  );
}
