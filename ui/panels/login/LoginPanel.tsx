/** The login window (route /login; SPEC §4 "Login"): the form of AuthForm.tsx in login mode. */

import type { PanelProps } from '../registry.ts';
import { AuthForm } from './AuthForm.tsx';

export default function LoginPanel(props: PanelProps) {
  return <AuthForm {...props} mode="login" />;
}
