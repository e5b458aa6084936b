package dev.bioverify.android

import dev.bioverify.capture.CaptureStep
import dev.bioverify.capture.ChallengeStep
import dev.bioverify.capture.PacedStep
import dev.bioverify.capture.PacedStepKind
import java.util.Locale

/**
 * The flow's words in English and French, as the hosted page has them. They live in code rather than
 * in res/values: the AAR is packaged without aapt (the Android Gradle Plugin cannot run here), so it
 * ships no compiled resources. [forLocale] follows the session's `locale` from `start`.
 */
class FlowStrings private constructor(private val table: Map<String, String>) {
  operator fun get(key: String): String = table[key] ?: EN.getValue(key)

  private fun find(key: String): String? = table[key] ?: EN[key]

  fun step(step: CaptureStep): String = get("step." + step.name.lowercase())

  fun challenge(step: ChallengeStep): String = get("challenge." + step.name.lowercase())

  /** A reason a newer server adds has no words yet: the generic ones stand in. */
  /**
   * The prompt of a paced step. `yaw` > 0 is the applicant's own left; pitch is named only from 6°,
   * where the server judges its direction.
   */
  fun paced(step: PacedStep): String =
    when (step.kind) {
      PacedStepKind.OPEN_MOUTH -> get("paced.open_mouth")
      PacedStepKind.HOLD_POSE -> {
        val side = get(if (step.targetYaw > 0) "paced.left" else "paced.right")
        val height = if (step.targetPitch >= 6) " " + get("paced.up") else if (step.targetPitch <= -6) " " + get("paced.down") else ""
        get("paced.hold_pose").replace("%s", side + height)
      }
    }

  fun retake(reason: String?): String = reason?.let { find("retake." + it.lowercase()) } ?: get("retake.generic")

  companion object {
    private val EN =
      mapOf(
        "step.start" to "Starting…",
        "step.document_front" to "Photograph the front of your document",
        "step.document_back" to "Now the back of your document",
        "step.chip" to "Hold your passport against the back of the phone",
        "step.liveness" to "Follow the instructions on screen",
        "step.selfie" to "Take a selfie",
        "step.submit" to "Sending…",
        "step.decision" to "Checking your identity…",
        "step.done" to "Done",
        "challenge.turn_left" to "Turn your head left",
        "challenge.turn_right" to "Turn your head right",
        "challenge.blink" to "Blink",
        "challenge.look_up" to "Look up",
        "challenge.look_down" to "Look down",
        "paced.hold_pose" to "Turn your head %s and hold it there",
        "paced.left" to "to your left",
        "paced.right" to "to your right",
        "paced.up" to "and up",
        "paced.down" to "and down",
        "paced.open_mouth" to "Face the camera and open your mouth wide",
        "paced.update" to "Please update the app to continue",
        "retake.document_unreadable" to "We could not read it. Use good light, avoid glare, and keep the whole document in the frame.",
        "retake.document_invalid" to "This document could not be validated. Check it is the right document.",
        "retake.document_expired" to "This document has expired. Use a valid document.",
        "retake.face_not_detected" to "We could not see your face. Face the camera in good light.",
        "retake.face_too_close" to "Move the phone a little further away.",
        "retake.face_not_found_in_frames" to "Keep your face in the frame during the whole challenge.",
        "retake.paced_challenge_restart" to "Let's start the challenge again. Keep your face in the frame and follow each prompt.",
        "retake.generic" to "Please try again.",
        "nfc.off" to "Turn on NFC to read your passport's chip, or skip this step.",
        "camera.permission" to "The camera is needed to photograph your document and your face.",
        "action.capture" to "Take photo",
        "action.skip" to "Skip",
        "action.open_settings" to "Open settings",
      )

    private val FR =
      mapOf(
        "step.start" to "Démarrage…",
        "step.document_front" to "Photographiez le recto de votre document",
        "step.document_back" to "Maintenant le verso de votre document",
        "step.chip" to "Posez votre passeport contre le dos du téléphone",
        "step.liveness" to "Suivez les instructions à l'écran",
        "step.selfie" to "Prenez un selfie",
        "step.submit" to "Envoi…",
        "step.decision" to "Vérification de votre identité…",
        "step.done" to "Terminé",
        "challenge.turn_left" to "Tournez la tête à gauche",
        "challenge.turn_right" to "Tournez la tête à droite",
        "challenge.blink" to "Clignez des yeux",
        "challenge.look_up" to "Regardez vers le haut",
        "challenge.look_down" to "Regardez vers le bas",
        "paced.hold_pose" to "Tournez la tête %s et gardez la pose",
        "paced.left" to "vers votre gauche",
        "paced.right" to "vers votre droite",
        "paced.up" to "et vers le haut",
        "paced.down" to "et vers le bas",
        "paced.open_mouth" to "Regardez la caméra et ouvrez grand la bouche",
        "paced.update" to "Mettez l'application à jour pour continuer",
        "retake.document_unreadable" to "Lecture impossible. Utilisez un bon éclairage, évitez les reflets et cadrez tout le document.",
        "retake.document_invalid" to "Ce document n'a pas pu être validé. Vérifiez qu'il s'agit du bon document.",
        "retake.document_expired" to "Ce document a expiré. Utilisez un document valide.",
        "retake.face_not_detected" to "Votre visage n'est pas visible. Placez-vous face à la caméra, en pleine lumière.",
        "retake.face_too_close" to "Éloignez un peu le téléphone.",
        "retake.face_not_found_in_frames" to "Gardez votre visage dans le cadre pendant tout le défi.",
        "retake.paced_challenge_restart" to "Recommençons le défi. Gardez votre visage dans le cadre et suivez chaque consigne.",
        "retake.generic" to "Veuillez réessayer.",
        "nfc.off" to "Activez le NFC pour lire la puce de votre passeport, ou passez cette étape.",
        "camera.permission" to "La caméra est nécessaire pour photographier votre document et votre visage.",
        "action.capture" to "Prendre la photo",
        "action.skip" to "Passer",
        "action.open_settings" to "Ouvrir les réglages",
      )

    fun forLocale(locale: String?): FlowStrings = FlowStrings(if (locale?.lowercase(Locale.ROOT)?.startsWith("fr") == true) FR else EN)

    internal fun keys(locale: String): Set<String> = (if (locale == "fr") FR else EN).keys
  }
}
