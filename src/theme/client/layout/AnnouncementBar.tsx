import { useState } from 'react';
import { useSite } from '../site-context.js';
import { CloseIcon } from '../icons.js';

export const ANNOUNCEMENT_KEY = 'pybook-announcement-dismiss';

/** Closable announcement; closing stores its id so it stays closed until a new id is configured. */
export function AnnouncementBar() {
  const { announcement, strings } = useSite();
  const [closed, setClosed] = useState(false);
  if (!announcement || closed) return null;
  const close = () => {
    try {
      localStorage.setItem(ANNOUNCEMENT_KEY, announcement.id);
    } catch {
      /* ignore */
    }
    document.documentElement.setAttribute('data-announcement-dismissed', '');
    setClosed(true);
  };
  return (
    <div className="announcement-bar" role="banner" data-announcement-id={announcement.id}>
      <div className="announcement-content">{announcement.content}</div>
      {announcement.closable && (
        <button
          type="button"
          className="announcement-close"
          aria-label={strings.closeAnnouncement}
          title={strings.closeAnnouncement}
          onClick={close}
        >
          <CloseIcon />
        </button>
      )}
    </div>
  );
}
