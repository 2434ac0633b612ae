/**
 * A school's renewal (spec 4.3, 5), shared by the quick renewal dialog and the recharge page: the package
 * cards with their buy buttons, the activation-code form, and the flow behind them (order, payment dialog,
 * result dialog).
 */
import { Button, Card, Empty, Form, Input, Space, Typography } from "antd";
import { useEffect, useState, type ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../../../common/money";
import { createSchoolOrder, fetchMealPackages, renewSchoolWithCode, type MealPackage, type PayOrder, type SchoolRef } from "./api";
import { PayDialog } from "./PayDialog";
import { PayResultDialog } from "./PayResultDialog";

/** The active packages (getsetmeal), loaded once per mount; null while loading. */
export function useMealPackages(): MealPackage[] | null {
  const [meals, setMeals] = useState<MealPackage[] | null>(null);
  useEffect(() => {
    let live = true;
    fetchMealPackages()
      .catch(() => [])
      .then((list) => live && setMeals(list));
    return () => {
      live = false;
    };
  }, []);
  return meals;
}

export function MealPackages({ meals, onBuy, buying }: { meals: MealPackage[]; onBuy: (meal: MealPackage) => void; buying: MealPackage["id"] | null }) {
  const { t, i18n } = useTranslation();
  if (meals.length === 0) return <Empty description={t("renewal.no_packages")} />;
  return (
    <Space wrap size={12} data-testid="renew-packages">
      {meals.map((meal) => (
        <Card key={meal.id} size="small" style={{ width: 180, textAlign: "center" }} data-testid={`renew-meal-${meal.id}`}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {meal.title}
          </Typography.Title>
          <Typography.Paragraph>
            <Typography.Text strong type="danger">
              {t("renewal.yuan", { amount: formatNumber(Number(meal.fee), i18n.language, 2) })}
            </Typography.Text>
          </Typography.Paragraph>
          <Button type="primary" data-testid={`renew-buy-${meal.id}`} loading={buying === meal.id} disabled={buying !== null && buying !== meal.id} onClick={() => onBuy(meal)}>
            {t("renewal.buy")}
          </Button>
        </Card>
      ))}
    </Space>
  );
}

export function ActivationCodeForm({ onSubmit }: { onSubmit: (code: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  const [sending, setSending] = useState(false);
  const submit = async ({ code }: { code: string }) => {
    setSending(true);
    try {
      await onSubmit(code.trim());
    } finally {
      setSending(false);
    }
  };
  return (
    <Form form={form} layout="inline" onFinish={(values) => void submit(values)} style={{ rowGap: 8 }}>
      <Form.Item name="code" rules={[{ required: true, whitespace: true, message: t("renewal.code_required") }]} style={{ flex: "1 1 240px" }}>
        <Input data-testid="renew-code-input" placeholder={t("renewal.code_placeholder")} allowClear />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" data-testid="renew-code-submit" loading={sending}>
          {t("renewal.activate")}
        </Button>
      </Form.Item>
    </Form>
  );
}

export interface SchoolRenewal {
  buy: (meal: MealPackage) => void;
  /** the meal whose order is being created */
  buying: MealPackage["id"] | null;
  redeem: (code: string) => Promise<void>;
  /** the payment and result dialogs: render them where they outlive the renewal dialog */
  dialogs: ReactElement;
}

/**
 * `onRenewed` runs after a paid order or a redeemed code (the caller closes its dialog and reloads the
 * school's expiry); the message then shows in the result dialog.
 */
export function useSchoolRenewal(school: SchoolRef | null, onRenewed: () => void): SchoolRenewal {
  const [order, setOrder] = useState<(PayOrder & { title: string }) | null>(null);
  const [buying, setBuying] = useState<MealPackage["id"] | null>(null);
  const [result, setResult] = useState<string | null>(null);

  const renewed = (message: string) => {
    setOrder(null);
    setResult(message);
    onRenewed();
  };

  const buy = (meal: MealPackage) => {
    if (!school) return;
    setBuying(meal.id);
    void createSchoolOrder(meal.id, school)
      .then((created) => created && setOrder({ ...created, title: meal.title }))
      .catch(() => undefined) // the client showed the error
      .finally(() => setBuying(null));
  };

  const redeem = async (code: string) => {
    if (!school) return;
    try {
      const message = await renewSchoolWithCode(code, school);
      if (message !== null) renewed(message);
    } catch {
      // the client showed the error
    }
  };

  const dialogs = (
    <>
      <PayDialog order={order} onClose={() => setOrder(null)} onPaid={renewed} onUnpaid={setResult} />
      <PayResultDialog message={result} onClose={() => setResult(null)} />
    </>
  );
  return { buy, buying, redeem, dialogs };
}
