// Whose turn it is, unmistakably: the page's title says so, and — only if the player asks, both off by default — a
// short sound (made by the browser itself: no file is fetched) and a browser notification when it becomes theirs.
import { t } from "./common.js";

const $ = (id) => document.getElementById(id);
const KEY = "ll.alerts";
const baseTitle = document.title;
let wasMine = null;

function settings() {
  try { return { sound: false, notify: false, ...JSON.parse(localStorage.getItem(KEY) || "{}") }; } catch { return { sound: false, notify: false }; }
}

/** A short tone made by the browser itself (also a challenge's, me.js). */
export function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.3);
  tone.onended = () => audio.close();
}

/** Call at every drawing: the title follows the turn; the sound and the notification fire when it becomes yours. */
export function turnAlerts(mine, heading) {
  document.title = mine ? `▶ ${t("seat.turn_title")} — ${baseTitle}` : baseTitle;
  document.body.dataset.yourTurn = String(mine);
  if (mine && wasMine === false) {
    const chosen = settings();
    const alerted = Number(document.body.dataset.alerted || 0) + 1;
    document.body.dataset.alerted = String(alerted); // how many times it became the player's turn (tests read it)
    if (chosen.sound) beep();
    if (chosen.notify && "Notification" in window && Notification.permission === "granted") {
      new Notification(t("seat.turn"), { body: heading, tag: "ll-turn" });
    }
  }
  wasMine = mine;
}

/** The two check boxes (a seat's page only), remembered by this browser. */
export function setUpAlerts() {
  const sound = $("alert-sound");
  const notify = $("alert-notify");
  const chosen = settings();
  sound.checked = chosen.sound;
  notify.checked = chosen.notify;
  const save = () => localStorage.setItem(KEY, JSON.stringify({ sound: sound.checked, notify: notify.checked }));
  sound.addEventListener("change", save);
  notify.addEventListener("change", async () => {
    if (notify.checked && "Notification" in window && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") { notify.checked = false; $("alert-denied").hidden = false; }
    }
    save();
  });
}
