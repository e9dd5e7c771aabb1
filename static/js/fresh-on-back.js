/* A page of live state (the lobby: your open table, the queue, the rooms'
   counts) brought back by the browser's Back from its back/forward cache shows
   the moment it was left: load it anew instead (fresh tester: Back from a table
   showed the lobby without its "回到牌桌" banner). */
window.addEventListener("pageshow", function (ev) {
  if (ev.persisted) window.location.reload();
});
