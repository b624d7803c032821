// Toasts with the product's settings (spec §9): 800 ms, top-center, tap to dismiss, close button.
import { i18n } from '../i18n';
import { toast, type ToastContainerProps } from 'react-toastify/unstyled';

export const TOAST_SETTINGS = {
  autoClose: 800,
  position: 'top-center',
  closeOnClick: true,
  closeButton: true,
  hideProgressBar: true,
  newestOnTop: true,
  theme: 'colored',
} satisfies ToastContainerProps;

export function toastSuccess(message: string): void {
  toast.success(message || i18n.t('common:toast.done'));
}

export function toastError(message: string): void {
  toast.error(message || i18n.t('common:toast.failed'));
}

export function toastInfo(message: string): void {
  toast.info(message);
}
