import { useEffect, useState } from 'react';
import type { ModelView } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { Notice } from './Notice.tsx';
import { PictureChoices } from './PictureChoices.tsx';

// The account's models to shoot a product on, as pictures to choose from: in New batch and in Reshoot.

export function ModelPicker({
  accountId,
  value,
  onChange,
}: {
  accountId: string;
  value: string | null;
  onChange: (url: string) => void;
}) {
  const [models, setModels] = useState<ModelView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setModels(null);
    api.call('models:list', { accountId }).then(setModels, (failure) => setError(messageOf(failure)));
  }, [accountId]);
  if (error) return <Notice kind="error">Could not load the models: {error}</Notice>;
  if (!models) return <p className="muted">Loading models…</p>;
  return (
    <PictureChoices
      legend="Model"
      name="model"
      columns={4}
      choices={models.map((model) => ({
        value: model.imageUrl,
        label: model.name,
        picture: <img src={model.imageUrl} alt="" width={48} height={48} />,
      }))}
      value={value}
      onChange={onChange}
    />
  );
}
