import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/lib/toast";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useSessionActions } from "@/hooks/use-session-actions";
import { useAdminLogin } from "@/queries/admin/login";

export function AdminLoginForm() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { errors, check } = useSchemaCheck((schemas) => schemas.adminLoginBody);
  const login = useAdminLogin();
  const { signIn } = useSessionActions();
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = await check({ email, password });
    if (!body) return;
    login.mutate(body, {
      onSuccess: ({ apiKey, user }) => {
        signIn(apiKey, user.role);
        toast({ title: "Login successful!" });
        navigate("/admin");
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Email" error={errors.email}>
        <Input type="email" required autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
      </FormField>
      <FormField label="Password" error={errors.password}>
        <PasswordInput
          required
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? "Logging in..." : "Login"}
      </Button>
    </form>
  );
}
