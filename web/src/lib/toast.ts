// Toasts with the product's settings (spec §9): 800 ms, top-center, tap to dismiss, close button.
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
  toast.success(message || 'Done.');
}

export function toastError(message: string): void {
  toast.error(message || 'Something went wrong. Please try again.');
}

export function toastInfo(message: string): void {
  toast.info(message);
}
