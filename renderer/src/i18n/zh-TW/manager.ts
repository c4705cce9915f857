/** Leaving a page with unsaved changes, archived roles, and the staged emoji sheet. */
export const zhTWManager = {
  'leave.title': '還有沒儲存的修改',
  'leave.body': '離開這一頁，剛才打的內容不會寫入檔案，也不會保留。要留下來繼續編輯嗎？',
  'leave.confirm': '離開，不儲存',
} as const;
