// /admin (SPEC.md §2): the PIN keypad until the admin signs in, then the admin panel.
import { AdminSessionProvider, useAdminSession } from "../features/admin/admin-session";
import { AdminPanel } from "../features/admin/admin-panel";
import { PinPad } from "../features/admin/pin-pad";

function AdminScreen() {
  const { token } = useAdminSession();
  return token ? <AdminPanel /> : <PinPad />;
}

export function AdminRoute() {
  return (
    <AdminSessionProvider>
      <AdminScreen />
    </AdminSessionProvider>
  );
}
