"""Which LongVQUBench dimension a question asks about (its kind), read from its English
gloss and its options with the cues of the vocabulary data file; and the words of a question
that no part of the vocabulary knows."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agent.distortions import distortions, mentions_generic, praised
from agent.language import gloss, read
from agent.options import GRADE_WORDS, LEVEL_WORDS, has_level, is_no, is_yes, parse_option
from agent.time_phrases import BEFORE_END
from agent.times import ORDINALS, SIDE_OF_TIME, parse_time, part_only, windows
from agent.trends import grows
from agent.vocabulary import vocabulary, words

VOCAB = vocabulary()

KINDS: tuple[str, ...] = (
    "detection", "localization", "classification", "severity", "comparison",
    "cumulative_effect", "integration", "temporal_relation", "stability", "dominant_factor",
    "trend", "overall", "open", "facts", "out_of_scope", "not_understood",
)
# Kinds whose answer depends on the distortion type named: when none known is named, the
# question's unknown words are reported.
TYPED_KINDS = ("localization", "detection", "severity", "comparison", "open")
_CUE = VOCAB.cues
_SCOPE = VOCAB.scope

# "first" / "last" said of when one distortion shows up (not "the first half": a window)
_FIRST_OR_LAST = re.compile(r"\b(?:first|earliest|initially|last|latest)\b"
                            r"(?!\s+(?:half|third|quarter|minute|minutes|second|seconds|part|"
                            r"section|segment|hour|few|\d))", re.I)

# "Rank the problems by how long each lasts", "list them from longest to shortest": the types
# ranked by their time (dominant_factor), not the order they come in (ranked by how bad they
# are, they are a comparison: compare.rank_types).
RANKED_BY = re.compile(r"\b(?:rank|ranks|ranked|ranking|order|sort|sorted|arrange|list)\b"
                       r"(?![^?.]{0,20}\b(?:they|it|each|of)\s+(?:appear|occur|happen|show|"
                       r"come|start|begin))[^?.]{0,60}\b(?:how long|duration|length|longest|"
                       r"shortest)\b", re.I)

# A stability word inside a defect's own phrase ("the brightness fluctuates" is flicker).
_STABILITY_WORD = re.compile(r"fluctuat|\bvar(?:y|ies|ying)\b|unstable|unsteady|steady|stabl|"
                             r"steadiness", re.I)

# "List all distortions ordered by severity", "sort the defects by how bad they are"
BY_SEVERITY = re.compile(r"\b(?:rank\w*|order\w*|sort\w*|list\w*|arrange\w*)\b[^?.]{0,60}\b"
                         r"(?:by|in order of|according to)\s+(?:their\s+|its\s+)?(?:severity|"
                         r"how (?:bad|severe|strong|serious)|strength|impact)\b", re.I)

# "How much longer / shorter ...?", "by how many seconds is it longer?": a difference of lengths
DIFFERENCE = re.compile(r"\bhow much (?:longer|shorter)\b|\bby how (?:many (?:seconds|minutes)|"
                        r"much|long)\b(?=[^?]*\b(?:longer|shorter)\b)|"
                        r"\bdifference in (?:length|duration)\b", re.I)

# "When does the quality begin to deteriorate?", "at what point does it start looking worse?":
# the moment the picture first goes bad (the first degraded stretch), not a trend or a
# comparison; asked with a time word first, a start word and a word of getting worse
ONSET_OF_DECLINE = re.compile(
    r"^(?:\W*[\w']+\W+){0,3}?(?:when|at what|at which|what time|from what|from which|since when|"
    r"how (?:far|long|many \w+) into)\b[^?.!]{0,50}?\b(?:start|starts|started|starting|begin|"
    r"begins|began|beginning|first|onset|kicks? in|sets? in)\b[^?.!]{0,30}?\b(?:worse|"
    r"worsen\w*|deteriorat\w*|degrad\w*|declin\w*|drop\w*|dip\w*|downhill|bad|poor|suffer\w*)\b|"
    r"^(?:\W*[\w']+\W+){0,3}?(?:from|since|after) (?:what|which) (?:point|moment|time|second|"
    r"minute)\b[^?.!]{0,40}?\b(?:worse|worsen\w*|deteriorat\w*|degrad\w*|declin\w*|drop\w*|"
    r"downhill)\b", re.I)

# "Before we publish", "after uploading", "does it need fixing first?": the user's own steps,
# not an order of defects
_ACTIVITY = re.compile(r"\b(?:before|after)\s+(?:we|i|you|they|it's|it\s+is|it\s+goes|"
                       r"publishing|uploading|sending|delivering|delivery|release|releasing|"
                       r"broadcast|broadcasting|airing|shipping|going\s+live|export\w*|"
                       r"encoding|editing)\b|\b(?:fix\w*|rework\w*|re-?encod\w*|correct\w*|"
                       r"repair\w*|clean\w*\s+up)\s+(?:it\s+|this\s+|that\s+)?first\b", re.I)

# The ends of a rating scale said in brackets: "(5 worst)", "(1 = barely visible, 5 = awful)"
_SCALE_ANCHOR = re.compile(r"\(\s*\d+\s*(?:=|:|-|is)?\s*(?:the\s+)?(?:best|worst|most|least|"
                           r"clean|perfect|excellent|bad|awful|severe|unwatchable)\b[^()]*\)|"
                           r"\(\s*\d+\s*(?:=|:)[^()]*\)", re.I)

# "covers more of the running time", "takes up more of the video": lengths compared
_COVERS_MORE = re.compile(r"\b(?:covers?|takes?\s+up|fills?|occupies|spans?)\s+(?:more|less)\b",
                          re.I)

# An option that is a level said with "not" ("not severe", "not too bad")
_NOT_LEVEL = re.compile(r"^\s*not\s+(?:very\s+|too\s+|so\s+|that\s+)?[\w-]+\s*$", re.I)

# An option saying the defect is not there at all ("there is no noise", "never", "none")
_NONE_OPTION = re.compile(r"\b(?:no|none|never|nowhere|neither|not\s+at\s+all)\b|"
                          r"\bnot\b[^.]{0,30}\b(?:anywhere|at any (?:point|time))\b", re.I)

# An option saying both (or all) of the others: "both", "in both halves", "all of them"
BOTH_OPTION = re.compile(r"^\s*(?:in\s+)?(?:both|all(?:\s+of\s+them)?|each|everywhere|"
                         r"throughout)\b", re.I)

# One defect said to come with another: whether they overlap
DURING = re.compile(r"\b(?:happen|happens|happened|occur|occurs|occurred|appear|appears|"
                    r"appeared|show up|shows up|come|comes|start|starts|take place|takes place|"
                    r"is there|are there)\s+(?:during|while|at the same time as|together with|"
                    r"alongside|along with)\b", re.I)

# Options comparing two things ("more severe", "less severe", "the same", "worse")
_COMPARATIVE = re.compile(r"\b(?:more|less|worse|better|milder|stronger|weaker|same|equal|"
                          r"equally)\b", re.I)

# Question words: a question without any of them asks yes or no.
_WH = re.compile(r"\b(?:when|where|which|what|how|why|who|whom|whose)\b", re.IGNORECASE)


def _is_quality(text: str) -> bool:
    """Whether a text uses a word of picture quality (beyond naming the video itself)."""
    return bool(_SCOPE["quality"].search(text))


# A fact that changes over the video ("what frame rate does it drop to?", "the resolution
# during the blurry part") is a measurement, not the file's own fact.
_CHANGES = re.compile(r"\b(?:drop|drops|dropped|dropping|fall|falls|fell|dip|dips|sink|sinks|"
                      r"go(?:es)? down|reduced|lower|lowest|worst|when|during|while|effective|"
                      r"become|becomes|change|changes|changing|vary|varies|at times|sometimes)\b",
                      re.I)


def _about_quality(text: str) -> bool:
    """Whether a text names a distortion or a quality word beyond the video itself."""
    return bool(distortions(text)) or bool(praised(text)) or mentions_generic(text) or \
        _is_quality(_SCOPE["medium"].sub("", text))


def question_kind(question: str, options: Sequence[str] = ()) -> str:
    """The LongVQUBench dimension a question asks about (a key of KINDS)."""
    reading = read(question, " ".join(options))
    if not reading.supported:
        return "not_understood"
    return kind_of(reading.gloss, [gloss(o, reading.code) for o in options])


# "rate / score / grade <one type>": its level, said on the scale asked for.
_RATES = re.compile(r"\b(?:rate|score|grade)\b|\bon a scale\b", re.IGNORECASE)
# "What share of the video does the low frame rate affect?" asks a share, not a rating.
_SHARE = re.compile(r"\b(?:fraction|percentage|proportion|share|percent|portion)\s+of\b|"
                    r"\bhow much of\b", re.IGNORECASE)
# "how many (distinct) frames per second", "what frame rate" asked of a choppy stretch: the
# rate the drop leaves (its severity answer gives it), not a count of stretches.
_RATE_ASKED = re.compile(r"\b(?:how many|what|which|roughly|about|approximately|how low)\b"
                         r"[^?.!]{0,40}\b(?:frames? (?:per|a|each) second|fps|frame ?rate)\b",
                         re.IGNORECASE)
# "the longest / shortest <one type>": one event of the type picked by its length (also read
# by the local brain's by_length).
BY_LENGTH = re.compile(r"\b(longest|shortest)\b", re.IGNORECASE)


def kind_of(q: str, options: Sequence[str]) -> str:
    """The kind of a question already in English words (see question_kind)."""
    kind = _kind_of(q, options)
    typed = [{m.type for m in distortions(o)} for o in options]
    if kind == "severity" and len(options) >= 2 and all(len(t) == 1 for t in typed) \
            and len(set().union(*typed)) == len(options):
        return "comparison"  # "what problem is more big, the color or the frame rate?"
    return kind


def _kind_of(q: str, options: Sequence[str]) -> str:
    q = q.strip()
    low = _SCALE_ANCHOR.sub(" ", q.lower())  # ("1-5 (5 worst)": a scale's ends, no ranking)
    # "after 1:00", "30 seconds before the end" name a time, not an order
    ordered = _ACTIVITY.sub(" ", BEFORE_END.sub(" ", SIDE_OF_TIME.sub(" ", low)))
    named = {m.type for m in distortions(q)}  # the distortion types the question names
    good = praised(q)
    has_dist = bool(named) or bool(good) or mentions_generic(q)
    if _SCOPE["unmeasured"].search(q) and not named:
        return "out_of_scope"  # "is there moiré?": a picture fault the index does not measure
    if (fact := _SCOPE["facts"].search(q)) and not _about_quality(
            q[:fact.start()] + " " + q[fact.end():]) and not _CHANGES.search(q):
        return "facts"  # "what is the frame rate of this video?": the file's own facts
    if named and named <= {"frame_drop", "stutter"} and _RATE_ASKED.search(low):
        return "severity"  # "in the choppy part, how many frames per second?": the drop's rate
    if _SCOPE["outside"].search(q) and not has_dist and not _is_quality(
            _SCOPE["medium"].sub("", q)):
        return "out_of_scope"
    if not options and _CUE["open_starts"].match(low) and not (
            low.startswith("how") and VOCAB.kinds["trend"].search(low)):
        return "open"  # (but "how does the quality develop over time?" is a trend)
    if re.search(r"\bthen\b[^?.!]{0,40}\bor\b[^?.!]{0,40}\bthen\b", low):
        return "temporal_relation"  # "blur then noise, or noise then blur?"
    if len(named) >= 2 and DURING.search(low):
        return "temporal_relation"  # "does the flicker happen during the exposure problem?"
    if DIFFERENCE.search(low) and len(named) == 1:
        return "comparison"  # "how much longer is the longest freeze than the shortest?"
    if RANKED_BY.search(low) and len(named) != 1:
        return "dominant_factor"  # all the types, ranked by their time or severity
    if BY_SEVERITY.search(low) and len(named) != 1:
        return "comparison"  # "list the problems ordered by severity": ranked, worst first
    if BY_LENGTH.search(low) and not re.search(r"\bhow long\b", low) \
            and not _CUE["yes_no_start"].match(low) and len(named) == 1:
        return "localization"  # "which freeze lasts the longest?": that one, and when
    if _FIRST_OR_LAST.search(low) and _CUE["asks_time"].search(low) \
            and not re.search(r"\b(?:which|or|before|after|than)\b", low) \
            and len(named) == 1:
        return "localization"  # "when does the noise appear first?": that one, and when
    if re.search(r"\bhow long\b[^?]{0,40}\b(?:pass|passes|elapse|elapses|go by|goes by|"
                 r"until|till)\b[^?]{0,30}\b(?:first|any)\b", low) and len(named) <= 1:
        return "localization"  # "how long until the first problem appears?": when it starts
    if re.search(r"\b(?:after|within) how (?:many|much|long)\b|\bhow far (?:into|in)\b|"
                 r"\bhow (?:long|(?:many|much) (?:minutes?|seconds?|time))\s+(?:into|in)\b", low) \
            and len(named) <= 1:
        return "localization"  # "after how many minutes does the blur start?": when
    opt_windows = [o for o in options if windows(o, 3600.0) or part_only(o, 3600.0)]
    if ONSET_OF_DECLINE.search(low) and len(named) <= 1 and len(opt_windows) == len(options) \
            and not re.search(r"(?<!at )(?<!from )(?<!after )\bwhich\b|\b(?:or|than)\b", low):
        return "localization"  # "when does the quality begin to deteriorate?": its onset
    if len(options) >= 2 and not has_dist and sum(
            bool(distortions(o)) and o in opt_windows for o in options) >= 2:
        return "classification"  # "which statement is true?" over claims of a type somewhere
    # Options that are all times ask "when", even when the question reads "which segment".
    if options and len(opt_windows) == len(options) and _CUE["asks_time"].search(low) \
            and not _CUE["ranking"].search(low):
        return "localization"
    # "Macroblocking window? Pick one.", "The picture is broken - in which part is the first
    # time?": one type over options that are all times, nothing ranked: where it is
    ranges = [o for o in options if (w := windows(o, 3600.0)) and not w[0].point]
    if len(ranges) >= 2 and all(o in ranges or is_no(o) or _NONE_OPTION.search(o)
                                for o in options) and len(named) == 1 \
            and not _CUE["ranking"].search(low) and not _COMPARATIVE.search(low):
        return "localization"  # (ranges: "2 s / 8 s" are lengths, "at 0:45" moments; "it is
        # not dark anywhere" beside them says none)
    # "Does the noise appear in the first or in the second half? / first half / second half /
    # there is no noise": which of the parts offered it is in
    if len(opt_windows) >= 2 and len(named) == 1 and re.search(r"\bor\b", low) and all(
            o in opt_windows or is_no(o) or _NONE_OPTION.search(o) or BOTH_OPTION.match(o)
            for o in options) \
            and not _CUE["ranking"].search(low) and not re.search(
                r"\b(?:worse|better|more|less|stronger|weaker|milder)\b", low):
        return "localization"
    # "Which of these stretches ...?" over options that are all times ranks them.
    if options and len(opt_windows) == len(options) >= 2 and re.search(r"\bwhich\b", low):
        return "comparison"
    if grows(low) and not (len(options) >= 2 and sum(bool(distortions(o)) for o in options)
                           >= len(options) - 1):
        return "trend"  # ("getting judder - is that dropped frames or shake?": which type)
    if _COVERS_MORE.search(low) and options:
        return "comparison"  # "which of the two problems covers more of the running time?"
    parsed = [parse_option("A", o, 0.0) for o in options]
    levelled = sum(has_level(o) and (not is_yes(o) and not is_no(o) or bool(_NOT_LEVEL.match(o)))
                   for o in options)  # ("not severe" is a level, not a no)
    if levelled and levelled < max(2, len(options) - 1) and sum(
            has_level(o) or p.grade is not None for o, p in zip(options, parsed, strict=True)) \
            >= max(2, len(options) - 1) and named:
        levelled = len(options)  # "not severe / fair / very severe": levels beside a grade
    # "more severe / less severe / the same" set two things against each other: no level
    comparative = sum(bool(_COMPARATIVE.search(o)) for o in options)
    if options and levelled >= max(2, len(options) - 1) and not _CUE["not_severity"].search(
            low) and comparative < max(2, len(options) - 1):
        return "severity"
    graded = sum(p.grade is not None for p in parsed)
    if options and graded >= max(2, len(options) - 1) and not _CUE["not_severity"].search(low) \
            and len(named or {m.type for m in good}) == 1:
        return "severity"  # "how good is the focus? good / fair / poor": that one's grade
    if options and graded >= max(2, len(options) - 1) and not named and not good:
        return "overall"  # "how bad is this overall, 1 to 5? 1 - terrible ... 5 - excellent"
    if _RATES.search(low) and len(named) == 1 \
            and not _CUE["yes_no_start"].match(low) and not _SHARE.search(low):
        return "severity"  # "rate the noise from 1 to 5": that one's level, on that scale
    for kind in VOCAB.kind_order:
        if VOCAB.kinds[kind].search(ordered if kind == "temporal_relation" else low):
            if kind == "comparison" and _CUE["which_type"].search(low) \
                    and not _CUE["pairwise"].search(low):
                return "classification"
            if kind == "comparison" and (_CUE["unit_where"].search(low)
                                         or _CUE["part_where"].search(low)):
                return "localization"
            if kind == "severity" and _CUE["yes_no_start"].match(low) \
                    and not _CUE["how"].search(low):
                continue
            if kind == "stability" and any(_STABILITY_WORD.search(m.text)
                                           for m in [*distortions(q), *good]):
                continue  # "does the brightness fluctuate?": the defect's own verb (flicker)
            return kind
    if options and all(is_yes(o) or is_no(o) for o in options):
        return "detection"
    if options and sum(bool(p.trend) for p in parsed) >= max(2, len(options) - 1):
        return "trend"  # "how does it hold up?" over options that are all trends
    if not options:
        if (has_dist or VOCAB.absent.search(low)) and re.search(r"[?？]\s*$", q) \
                and not _WH.search(low):
            return "detection"  # "¿La imagen es nítida?": yes/no in any word order
        return "open" if has_dist or _is_quality(q) else "not_understood"
    typed = sum(bool(distortions(o)) for o in options)
    if typed >= len(options) - 1 or typed >= 2 and typed + sum(
            bool(BOTH_OPTION.match(o) or _NONE_OPTION.search(o)) and not distortions(o)
            for o in options) == len(options):
        return "classification"  # (also "noise / over-sharpening / both / neither")
    if not has_dist and not _is_quality(q):
        return "not_understood"
    return "overall"


def unrecognised(text: str, lang: str = "en") -> list[str]:
    """Words of a question that no part of the vocabulary knows (at most three): what a
    question that names no known quality term may have called its problem."""
    known = [*VOCAB.kinds.values(), *_CUE.values(), *_SCOPE.values(), VOCAB.least,
             VOCAB.none]
    covered = words(known, text) + [(f.start, f.end) for f in VOCAB.terms.find(text)] + [
        (f.start, f.end) for f in VOCAB.generic.find(text)]
    stop = VOCAB.languages[lang].stopwords if lang in VOCAB.languages else frozenset()
    out: list[str] = []
    for m in re.finditer(r"[^\W\d_]+(?:'[^\W\d_]+)?", text):
        w = m.group(0).lower()
        if len(w) < 3 or w in VOCAB.common or w in stop or w in LEVEL_WORDS or \
                w in GRADE_WORDS or w in ORDINALS or any(a < m.end() and m.start() < b
                                                         for a, b in covered):
            continue
        if parse_time(w) is None and w not in out and not re.fullmatch(r"\w+(ly|ing)", w):
            out.append(w)
    return out[:3]
