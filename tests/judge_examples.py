"""Hand-scored open answers for the papers' judges, written from the papers' descriptions, and a
careful judge for the scripted server: it reads the answer out of the paper's prompt and gives
the score a careful judge would (per round for Q-Bench-Video), in the reply form each paper asks.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict

import scripted_server as ss

# Q-Bench-Video 13.4/13.5: (question, correct answer, response, the five rounds' scores).
GIRL_Q = ("The little girl in the lower part of this video appears with good visual quality, "
          "please briefly analyze the reasons.")
GIRL_REF = ("The overall lighting of the video is appropriate and even. The contrast and "
            "saturation are natural, and the camera is stable without shaking. This makes the "
            "little girl's facial features, hair, and overall movements appear clear and natural, "
            "giving a high visual quality presentation.")
DIST_Q = "What is the most apparent distortion in this video?"
DIST_REF = "Motion blur when the camera pans."
CLAR_Q = "How is the overall clarity of the video, and why?"
CLAR_REF = "Poor: heavy compression blocks and out-of-focus shots."
PAIR_Q = "Which video has better visual quality, and why?"
PAIR_REF = "The first video: the second one flickers and is noisy."
QBENCH = [
    (GIRL_Q, GIRL_REF, "The little girl in the lower part of the video screen appears with good "
     "quality because the video is shot in high resolution.", [0, 0, 1, 0, 0]),  # paper: 0.1
    (DIST_Q, DIST_REF, "The most obvious distortion is motion blur during the camera pan.",
     [2, 2, 2, 2, 2]),
    (DIST_Q, DIST_REF, "There is some blur.", [1, 1, 1, 1, 1]),
    (DIST_Q, DIST_REF, "The colours are vivid and well balanced.", [0, 0, 0, 0, 0]),
    (DIST_Q, DIST_REF, "I cannot answer.", [0, 0, 0, 0, 0]),
    (CLAR_Q, CLAR_REF, "Low clarity: blocking artefacts from compression, and the focus is soft.",
     [2, 2, 2, 2, 2]),
    (CLAR_Q, CLAR_REF, "Clarity is poor because of blocking.", [1, 1, 2, 1, 1]),
    (PAIR_Q, PAIR_REF, "Video 1 is better; video 2 shows flicker and noise.", [2, 2, 2, 2, 2]),
    (PAIR_Q, PAIR_REF, "The second video is better.", [0, 0, 0, 0, 0]),
    (PAIR_Q, PAIR_REF, "The first video, it is sharper.", [1, 1, 1, 0, 1]),
]

# MMBench-Video: (question, ground truth, answer, the 0-3 score).
DOOR_Q, DOOR_REF = ("What does the man do after opening the door?",
                    "He picks up the package and carries it inside.")
CARS_Q, CARS_REF = "How many cars pass before the light turns green?", "Three."
CHEER_Q, CHEER_REF = ("Why does the crowd cheer at the end?",
                      "Because the home team scores the winning goal in the last minute.")
MMBENCH = [
    (DOOR_Q, DOOR_REF, "He takes the package and brings it into the house.", 3),
    (DOOR_Q, DOOR_REF, "He picks up the package.", 2),
    (DOOR_Q, DOOR_REF, "He looks at something on the ground.", 1),
    (DOOR_Q, DOOR_REF, "He closes the door and leaves.", 0),
    (CARS_Q, CARS_REF, "3 cars.", 3),
    (CARS_Q, CARS_REF, "Four cars.", 0),
    (CHEER_Q, CHEER_REF, "The home team scores a late winning goal.", 3),
    (CHEER_Q, CHEER_REF, "A goal is scored.", 2),
    (CHEER_Q, CHEER_REF, "The crowd is happy.", 1),
    (CHEER_Q, CHEER_REF, "I cannot see the video.", 0),
]

# LongVQUBench D.2: (question, answer from dataset, respondent answer, completeness, relevance,
# level).
FLICK_Q = "Describe the distortion between 01:10 and 01:25 and its impact on viewing."
FLICK_REF = ("Flicker: brightness oscillates rapidly from 01:10 to 01:25, which is distracting "
             "and uncomfortable to watch.")
TREND_Q = "How does the picture quality change over the whole video?"
TREND_REF = "It degrades steadily: the second half is blurrier and noisier than the first."
DOM_Q = "Which distortion dominates the video?"
DOM_REF = "Gaussian noise, present in most segments."
LONGVQU = [
    (FLICK_Q, FLICK_REF, "From 1:10 to 1:25 the brightness flickers rapidly; it is distracting "
     "and uncomfortable.", 1.0, 1.0, "LQU"),
    (FLICK_Q, FLICK_REF, "There is flicker around 1:10.", 0.5, 1.0, "LQU"),
    (FLICK_Q, FLICK_REF, "The video shows a man walking a dog in a park.", 0.0, 0.0, "LQU"),
    (FLICK_Q, FLICK_REF, "Flicker from 1:10 to 1:25. The music is nice and the actors are famous.",
     0.5, 0.5, "LQU"),
    (TREND_Q, TREND_REF, "It gets worse over time: the second half is blurrier and noisier.",
     1.0, 1.0, "GQU"),
    (TREND_Q, TREND_REF, "The quality is stable throughout.", 0.0, 0.75, "GQU"),
    (TREND_Q, TREND_REF, "Blurrier later.", 0.5, 1.0, "GQU"),
    (DOM_Q, DOM_REF, "Noise (Gaussian grain) dominates, appearing in most segments.", 1.0, 1.0,
     "GQU"),
    (DOM_Q, DOM_REF, "Noise, and the kitchen light is warm and the cat is cute.", 0.5, 0.5, "GQU"),
    (DOM_Q, DOM_REF, "The cat is cute.", 0.0, 0.25, "GQU"),
]

_SLOTS = {
    "qbench_video": re.compile(r'the response \["(.*?)"\] completely matches', re.S),
    "mmbench_video": re.compile(r"Model answer: (.*?)\n\nGive one score", re.S),
    "longvqubench": re.compile(r"Respondent Answer: (.*?)\n\nOutput", re.S),
}


class CarefulJudge:
    """A scripted-server responder giving each hand-scored answer its score, reply by reply."""

    def __init__(self, forms: tuple[str, ...] = ("Score: {s}", "**Score:** {s}", "{s}")) -> None:
        self.rounds: dict[str, list[int]] = {r: list(s) for _, _, r, s in QBENCH}
        self.mm = {r: s for _, _, r, s in MMBENCH}
        self.lvq = {r: (c, rel) for _, _, r, c, rel, _ in LONGVQU}
        self.forms = forms
        self.calls: dict[str, int] = defaultdict(int)

    def __call__(self, req: ss.Recorded) -> ss.Reply:
        user = req.messages[-1]["content"]
        for key, slot in _SLOTS.items():
            m = slot.search(user)
            if m:
                return ss.text(self._reply(key, m.group(1)))
        return ss.text("I do not know this prompt.")

    def _reply(self, key: str, answer: str) -> str:
        n = self.calls[answer]
        self.calls[answer] += 1
        form = self.forms[n % len(self.forms)]
        if key == "qbench_video":
            return form.format(s=self.rounds[answer][n])
        if key == "mmbench_video":
            return form.format(s=self.mm[answer])
        c, r = self.lvq[answer]
        body = json.dumps({"completeness_score": c, "relevance_score": r}, indent=2)
        return f"```json\n{body}\n```"
