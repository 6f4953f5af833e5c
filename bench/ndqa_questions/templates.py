"""The phrasings of NDQA questions and fixed options, several per dimension."""

DETECTION_NAMED = (
    "{Be} there any {noun} {win}?",
    "Does the video show {noun} {win}?",
    "Can {noun} be noticed {win}?",
    "{Be} {noun} present in the video {win}?",
)
DETECTION_GENERIC = (
    "Is there any visible quality distortion {win}?",
    "Does the picture show any degradation {win}?",
)
LOCALIZATION_NAMED = (
    "When {do} {the_noun} occur?",
    "At what point in the video {do} {noun} appear?",
    "During which interval {be} {the_noun} visible?",
    "In which time range does the video suffer from {noun}?",
)
LOCALIZATION_GENERIC = (
    "When does a visible quality distortion appear in the video?",
    "At what time does the picture quality degrade?",
)
CLASSIFICATION = (
    "What type of distortion appears {win}?",
    "Which kind of degradation affects the picture {win}?",
    "What kind of artifact can be seen {win}?",
)
CLASSIFICATION_WHOLE = (
    "What kind of distortion occurs in this video?",
    "Which type of quality degradation does this video contain?",
)
SEVERITY = (
    ("How severe {be} {the_noun} {win}?", ("Mild", "Moderate", "Severe")),
    ("How strong {be} {the_noun} {win}?", ("Slight", "Moderate", "Strong")),
    ("How much {do} {the_noun} {win} affect viewing comfort?",
     ("Slightly: it is easy to overlook", "Moderately: it is noticeable and somewhat distracting",
      "Severely: it is very disturbing to watch")),
)
COMPARISON_WINDOWS = (
    "Which of these intervals shows the most severe degradation?",
    "Which of the following intervals has the worst picture quality?",
    "In which of these intervals is the distortion most disturbing to watch?",
)
COMPARISON_TYPES = (
    "Which distortion is more severe: {a} or {b}?",
    "Which is more disturbing to watch, {a} or {b}?",
)
COMPARISON_YESNO = (
    "{Be_a} {a} {win_a} more severe than {b} {win_b}?",
    "{Be_a} {a} {win_a} milder than {b} {win_b}?",
)
CUMULATIVE_DURATION = (
    "In total, for roughly how long is the picture degraded over the whole video?",
    "Adding up all the distorted stretches, how long does the degradation last in total?",
)
CUMULATIVE_COUNT = (
    "How many separate distortion events accumulate over the course of the video?",
    "How many times does the viewer run into a quality degradation during the video?",
)
INTEGRATION_SET = (
    "Which distortion types appear in the video?",
    "Taking all segments into account, which set of distortions does the video contain?",
)
INTEGRATION_COUNT = (
    "How many different types of distortion appear across the video?",
    "Considering the whole video, how many distinct kinds of distortion does it contain?",
)
TEMPORAL_ORDER = (
    ("first", "Which distortion appears first in the video?"),
    ("first", "Which of these degradations occurs earliest?"),
    ("last", "Which distortion occurs last in the video?"),
    ("last", "Which of these degradations appears latest in the video?"),
)
TEMPORAL_YESNO = (
    ("before", "{Do_a} {a} occur before {b}?"),
    ("after", "{Do_a} {a} appear after {b}?"),
)
TEMPORAL_PAIR = "In what order do {a} and {b} occur?"
STABILITY = (
    "How stable is the viewing quality throughout the video?",
    "How consistent is the picture quality over the whole video?",
)
STABILITY_OPTIONS = {
    "stable": "Stable throughout, with no noticeable change",
    "occasional": "Mostly stable, with one or two isolated drops",
    "fluctuating": "Fluctuates repeatedly between good and poor quality",
    "drifting": "Changes gradually in one direction",
}
STABILITY_YESNO = (
    (True, "Is the picture quality consistent throughout the video?"),
    (False, "Does the picture quality vary noticeably over the course of the video?"),
)
DOMINANT = (
    "What is the dominant distortion in this video?",
    "Which distortion contributes most to the overall quality loss?",
    "Which degradation most strongly affects the overall viewing experience?",
)
NO_DISTORTION = "No noticeable distortion"
TREND = (
    "How does the picture quality change as the video progresses?",
    "What is the overall trend of the picture quality from start to end?",
)
TREND_OPTIONS = {
    "improving": "It improves over time",
    "stable": "It stays about the same",
    "degrading": "It gets worse over time",
    "fluctuating": "It fluctuates up and down",
}
TREND_YESNO = (
    ("degrading", "Does the picture quality get worse as the video goes on?"),
    ("improving", "Does the picture quality improve as the video goes on?"),
)
OVERALL = (
    "How would you rate the overall picture quality of this video?",
    "What is the overall perceptual quality of the whole video?",
)
GRADES = ("Excellent", "Good", "Fair", "Poor")
OVERALL_YESNO = (
    (True, "Overall, is this video free of visible quality problems?"),
    (False, "Does this video contain visible quality problems?"),
)
OPEN = {
    "LQU": (
        "Why {do} {the_noun} {win} reduce the perceived quality of the video?",
        "Describe the distortion {win} and explain how it affects the viewing experience.",
    ),
    "CQR": (
        "Describe the distortions in this video, when they occur, and how they compare in "
        "severity.",
        "Explain how the different distortions in this video follow each other over time and "
        "how together they affect the viewing experience.",
    ),
    "GQU": (
        "Explain how the picture quality evolves over the whole video and what mainly "
        "determines the overall impression.",
        "Describe the overall picture quality of the video and justify your judgement with "
        "what happens over time.",
    ),
}
