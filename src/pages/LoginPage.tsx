/** Login (spec 5): username trimmed, password as entered; back to ?redirect= afterwards. */
import { LockOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Form, Input, theme } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { login } from "../../providers/authProvider";
import { LanguageSwitch } from "../LanguageSwitch";
import { useSiteSettings } from "../lib/site";

interface LoginForm {
  username: string;
  password: string;
}

export function LoginPage() {
  const { t } = useTranslation();
  const site = useSiteSettings();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);
  const { token } = theme.useToken();

  const onFinish = async (values: LoginForm) => {
    setSubmitting(true);
    const result = await login({ ...values, redirect: params.get("redirect") ?? undefined });
    setSubmitting(false);
    if (result.success && result.redirectTo) navigate(result.redirectTo, { replace: true });
  };

  return (
    <div style={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", background: "#2d3a4b" }}>
      {/* plain markup instead of Card/Typography: they pull tabs, menus and tooltips into the login bundle */}
      <div style={{ width: 380, padding: 24, borderRadius: token.borderRadiusLG, background: token.colorBgContainer }} data-testid="login-card">
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 16 }}>
          <h1 style={{ margin: 0, fontSize: 22, color: token.colorText }} data-testid="login-title">
            {site.title}
          </h1>
          <LanguageSwitch />
        </div>
        <Form<LoginForm> layout="vertical" onFinish={onFinish} requiredMark={false} data-testid="login-form">
          <Form.Item
            name="username"
            label={t("login.username")}
            rules={[{ required: true, whitespace: true, message: t("login.username_required") }]}
          >
            <Input prefix={<UserOutlined />} autoComplete="username" data-testid="login-username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t("login.password")} rules={[{ required: true, message: t("login.password_required") }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
            {t("login.submit")}
          </Button>
        </Form>
        {/* the platform's public website, a server-rendered page of its own */}
        <div style={{ marginTop: 16, display: "flex", justifyContent: "center", gap: 16, flexWrap: "wrap" }}>
          <a href="/site" data-testid="login-site" style={{ color: token.colorTextSecondary }}>
            {t("login.website")}
          </a>
          <Link to="/register" data-testid="login-register" style={{ color: token.colorTextSecondary }}>
            {t("login.register")}
          </Link>
        </div>
      </div>
    </div>
  );
}
