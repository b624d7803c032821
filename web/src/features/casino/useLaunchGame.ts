import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { toastError } from '../../lib/toast';
import { launchGame } from './api';

/** Launches a provider game: its address opens in the full-screen game page; a failure toasts the server's message. */
export function useLaunchGame() {
  const navigate = useNavigate();
  const [launching, setLaunching] = useState<string | number | null>(null);
  const launch = async (gameId: string | number) => {
    setLaunching(gameId);
    try {
      const url = await launchGame(gameId);
      if (url) void navigate(`/casino/mac88/game?url=${encodeURIComponent(url)}`);
    } catch (error) {
      toastError(errorMessage(error));
    } finally {
      setLaunching(null);
    }
  };
  return { launch, launching };
}
