import type { ButtonValue } from '../../api/button-values';
import { apiGet, apiPost, dataOr, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';
import type { ChangePasswordValues } from '../../lib/password';

export { getButtonValues, type ButtonType, type ButtonValue } from '../../api/button-values';

export function setButtonValues(values: ButtonValue[]): Promise<Answer<null>> {
  return apiPost<null>('user/setButtonValue', values);
}

export function changePassword(values: ChangePasswordValues): Promise<Answer<null>> {
  const body: Record<string, string> = {
    master_password: values.master_password,
    new_password: values.new_password,
    confirm_password: values.confirm_password,
  };
  if (values.old_password) body.old_password = values.old_password;
  return apiPost<null>('user/changePassword', body);
}

export interface DepositInput {
  amount: number;
  reference: string;
}

export interface WithdrawInput {
  amount: number;
  account_holder: string;
  account_number: string;
  ifsc: string;
  bank_name: string;
}

export type PaymentRequest = Schemas['RequestCreated'];

export function requestDeposit(input: DepositInput): Promise<Answer<PaymentRequest>> {
  return apiPost<PaymentRequest>('payment/deposit', input);
}

export function requestWithdraw(input: WithdrawInput): Promise<Answer<PaymentRequest>> {
  return apiPost<PaymentRequest>('payment/withdraw', input);
}

/** Where the bettor pays: its agent's (or the operator's) UPI id with its upi:// link, and/or bank account. */
export type PaymentDetails = Schemas['PaymentDetailsItem'];
export type SavedBankAccount = Schemas['BankAccountItem'];

/** The payee's details, or null when nobody above the bettor has set any. */
export async function getPaymentDetails(): Promise<PaymentDetails | null> {
  return dataOr(await apiGet<PaymentDetails | null>('payment/details'), null);
}

/** The bank account the bettor last withdrew to (or saved), or null. */
export async function getSavedBankAccount(): Promise<SavedBankAccount | null> {
  return dataOr(await apiGet<SavedBankAccount | null>('payment/bankAccount'), null);
}
