package dev.bioverify.capture

/** The liveness steps the server draws (3 distinct ones per session). */
enum class ChallengeStep { TURN_LEFT, TURN_RIGHT, BLINK, LOOK_UP, LOOK_DOWN }

enum class DocumentSide(val wire: String) { FRONT("front"), BACK("back") }

/** `person.document_type` values, as the server names them. */
enum class DocumentType(val wire: String) {
  PASSPORT("passport"),
  ID_CARD("id_card"),
  DRIVING_LICENCE("driving_licence"),
  RESIDENCE_PERMIT("residence_permit"),
  ;

  companion object {
    fun of(wire: String): DocumentType? = values().firstOrNull { it.wire == wire }
  }
}

/**
 * How a session captures liveness: [PACED] (production keys) reveals the challenge one step at a
 * time (`…/liveness/steps`, [PacedLivenessDriver]); [ONE_SHOT] (sandbox keys) uploads the whole
 * challenge from `start` at once (`POST …/liveness`).
 */
enum class LivenessMode(val wire: String) {
  PACED("paced"),
  ONE_SHOT("one_shot"),
  ;

  companion object {
    fun of(wire: String): LivenessMode = values().firstOrNull { it.wire == wire } ?: throw CaptureException.malformed("unknown liveness_mode $wire")
  }
}

/** `POST /v1/capture/{id}/start`. */
data class StartAnswer(
  val captureToken: String,
  val challenge: List<ChallengeStep>,
  val documentTypes: List<DocumentType>,
  val expiresAt: String,
  val locale: String,
  val livenessMode: LivenessMode = LivenessMode.ONE_SHOT,
) {
  companion object {
    fun from(o: JsonObject) =
      StartAnswer(
        captureToken = o.string("capture_token"),
        challenge = o.strings("challenge").map { step -> ChallengeStep.values().firstOrNull { it.name == step } ?: throw CaptureException.malformed("unknown challenge step $step") },
        documentTypes = o.strings("document_types").mapNotNull { DocumentType.of(it) },
        expiresAt = o.string("expires_at"),
        locale = o.string("locale"),
        // A server from before the paced challenge does not say: it only has the one-shot upload.
        livenessMode = o.stringOrNull("liveness_mode")?.let { LivenessMode.of(it) } ?: LivenessMode.ONE_SHOT,
      )
  }
}

/** `PUT …/document/{side}`: whether the side was read, and what comes next. [next] is `back`, `liveness` or null. */
data class DocumentAnswer(
  val side: DocumentSide,
  val readable: Boolean,
  val reason: String?,
  val retake: Boolean,
  val attemptsLeft: Int,
  val next: String?,
) {
  companion object {
    fun from(o: JsonObject) =
      DocumentAnswer(
        side = if (o.string("side") == "back") DocumentSide.BACK else DocumentSide.FRONT,
        readable = o.boolean("readable"),
        reason = o.stringOrNull("reason"),
        retake = o.boolean("retake"),
        attemptsLeft = o.int("attempts_left"),
        next = o.stringOrNull("next"),
      )
  }
}

/** `POST …/liveness`: a quality gate only; the verdict comes with the decision. */
data class LivenessAnswer(val received: Int, val faceFoundRatio: Double, val retake: Boolean, val attemptsLeft: Int) {
  companion object {
    fun from(o: JsonObject) = LivenessAnswer(o.int("received"), o.double("face_found_ratio"), o.boolean("retake"), o.int("attempts_left"))
  }
}

/** `PUT …/selfie`. [reason] is `FACE_NOT_DETECTED`, `FACE_TOO_CLOSE` or null. */
data class SelfieAnswer(val faceFound: Boolean, val retake: Boolean, val reason: String?, val attemptsLeft: Int) {
  companion object {
    fun from(o: JsonObject) = SelfieAnswer(o.boolean("face_found"), o.boolean("retake"), o.stringOrNull("reason"), o.int("attempts_left"))
  }
}

/** `GET /v1/capture/{id}`: [decision] is `none`, `pending` or `done`; [steps] only with the token. */
data class StatusAnswer(val status: String, val decision: String, val redirectUrl: String?, val steps: Map<String, String>) {
  val isDecided: Boolean
    get() = decision == "done"

  companion object {
    fun from(o: JsonObject) =
      StatusAnswer(
        status = o.string("status"),
        decision = o.string("decision"),
        redirectUrl = o.stringOrNull("redirect_url"),
        steps = o.objOrNull("steps")?.map?.mapValues { it.value.toString() } ?: emptyMap(),
      )
  }
}

/** `POST …/chip/challenge`: 8 random bytes for active authentication, single use. */
data class ChipChallenge(val challenge: ByteArray, val expiresAt: String) {
  companion object {
    fun from(o: JsonObject) = ChipChallenge(Base64.decode(o.string("challenge")), o.string("expires_at"))
  }
}

/** Active authentication: the chip's signature over the server's challenge. */
class ActiveAuthentication(val challenge: ByteArray, val signature: ByteArray)

/** The chip's files as read (EF.SOD with its 0x77 tag), for `PUT …/document/chip`. */
class ChipData(
  val sod: ByteArray,
  val dg1: ByteArray,
  val dg2: ByteArray,
  val dg14: ByteArray? = null,
  val dg15: ByteArray? = null,
  val activeAuthentication: ActiveAuthentication? = null,
) {
  fun toJson(): String {
    val body = LinkedHashMap<String, Any?>()
    body["sod"] = Base64.encode(sod)
    body["dg1"] = Base64.encode(dg1)
    body["dg2"] = Base64.encode(dg2)
    dg14?.let { body["dg14"] = Base64.encode(it) }
    dg15?.let { body["dg15"] = Base64.encode(it) }
    activeAuthentication?.let {
      body["active_authentication"] = mapOf("challenge" to Base64.encode(it.challenge), "signature" to Base64.encode(it.signature))
    }
    return Json.write(body)
  }
}
