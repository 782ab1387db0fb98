// The replay viewer's download link: a game of this server links its log (the template draws it); a file picked or
// dropped here is offered back as it is, so what the viewer judged can be kept or passed on. Kept apart from
// viewer.js, which it only listens beside (the same picker and drop).
import { t } from "./common.js";

const link = document.getElementById("download-log");
let url = null;

function offer(file) {
  if (!file) return;
  if (url) URL.revokeObjectURL(url);
  url = URL.createObjectURL(file);
  link.href = url;
  link.download = file.name || "game.jsonl";
  link.textContent = t("replay.download_file");
  link.hidden = false;
}

const picker = document.getElementById("file");
picker.addEventListener("change", () => offer(picker.files[0]));
document.addEventListener("drop", (event) => offer(event.dataTransfer?.files?.[0]));
