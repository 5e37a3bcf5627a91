/** The register window (route /register; SPEC §5 form texts): the form of AuthForm.tsx in register mode. */

import type { PanelProps } from '../registry.ts';
import { AuthForm } from './AuthForm.tsx';

export default function RegisterPanel(props: PanelProps) {
  return <AuthForm {...props} mode="register" />;
}
