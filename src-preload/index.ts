import { contextBridge } from 'electron';

// The renderer gets a narrow, typed bridge; raw ipcRenderer is never exposed.
contextBridge.exposeInMainWorld('adbatch', { version: 1 });
