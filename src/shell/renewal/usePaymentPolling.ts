/**
 * Payment status of an open QR order (spec 4.3, 4.4): checkpay every `intervalMs` while running, silently, and
 * on demand. `onPaid` runs once per order, whichever check sees the payment first; a check still under way
 * when polling stops is ignored.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { checkPayment, type CheckResult } from "./api";

export interface PaymentPolling {
  stop: () => void;
  /** one check now; a paid answer ends polling and calls onPaid */
  checkNow: () => Promise<CheckResult>;
}

/** Polls while `payNo` is set, from the moment it is set until stopped, paid or cleared. */
export function usePaymentPolling(payNo: string | null, intervalMs: number, onPaid: (message: string) => void): PaymentPolling {
  const [running, setRunning] = useState(false);
  const onPaidRef = useRef(onPaid);
  useEffect(() => {
    onPaidRef.current = onPaid;
  });
  // the order being watched; a settled order or a stale answer no longer counts
  const watched = useRef<string | null>(null);
  const settled = useRef(false);
  const inFlight = useRef(false);

  useEffect(() => {
    watched.current = payNo;
    settled.current = false;
    setRunning(Boolean(payNo));
  }, [payNo]);

  const settle = useCallback((forPayNo: string, result: CheckResult) => {
    if (!result.paid || settled.current || watched.current !== forPayNo) return;
    settled.current = true;
    setRunning(false);
    onPaidRef.current(result.message);
  }, []);

  useEffect(() => {
    if (!running || !payNo) return;
    let live = true;
    const timer = setInterval(() => {
      // a slow answer is not stacked up behind another request
      if (inFlight.current) return;
      inFlight.current = true;
      void checkPayment(payNo)
        .then((result) => live && settle(payNo, result))
        .finally(() => {
          inFlight.current = false;
        });
    }, intervalMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [running, payNo, intervalMs, settle]);

  const stop = useCallback(() => setRunning(false), []);

  const checkNow = useCallback(async (): Promise<CheckResult> => {
    const forPayNo = watched.current;
    if (!forPayNo) return { paid: false, message: "" };
    const result = await checkPayment(forPayNo);
    settle(forPayNo, result);
    return result;
  }, [settle]);

  return { stop, checkNow };
}
