/** Every string the capture flow shows, in each locale a session may carry. */
const en = {
  title: 'Verify your identity',
  introLead: 'This takes about two minutes. You will need your identity document and good light.',
  introWhat:
    'We capture: a photo of your document, a short video of your face following a few movements, and a selfie.',
  introWhy:
    'Why: to confirm that the document is genuine and that it belongs to you, on behalf of the service that sent you.',
  introKept: 'How long: the images are deleted as soon as the check is decided; only the result is kept.',
  start: 'Start',
  cancel: 'Cancel',
  documentTypeTitle: 'Which document will you use?',
  doc_passport: 'Passport',
  doc_id_card: 'Identity card',
  doc_driving_licence: 'Driving licence',
  doc_residence_permit: 'Residence permit',
  frontTitle: 'Photograph the front of your document',
  backTitle: 'Now the back of your document',
  documentHint: 'Place the document inside the frame, flat, with all four corners visible and no glare.',
  selfieTitle: 'Take a selfie',
  selfieHint:
    "Hold the phone at arm's length and keep your whole head inside the oval, with space around it. Look straight at the camera, face uncovered, in good light.",
  capture: 'Take photo',
  retake: 'Retake',
  usePhoto: 'Use this photo',
  upload: 'Upload a photo instead',
  previewAlt: 'The photo you took',
  cameraLabel: 'Camera preview',
  cameraPreparing: 'Preparing the camera…',
  sending: 'Sending…',
  reason_DOCUMENT_UNREADABLE:
    'We could not read the code at the bottom of the document. Retake it in better light, without blur or glare.',
  reason_DOCUMENT_INVALID:
    'This document did not pass our checks. Make sure it is a real identity document and retake it.',
  reason_DOCUMENT_EXPIRED: 'This document has expired. Use a document that is still valid if you have one.',
  attemptsLeft: 'Attempts left: {n}.',
  noFace: 'We could not see your face. Hold the phone at eye level, face the light and try again.',
  faceTooClose:
    'Your face is too close to the camera. Move back until your whole head fits inside the oval, with space around it, and try again.',
  livenessTitle: 'Follow the movements',
  livenessHint: 'Hold the phone at eye level, your whole face in the oval. Follow each instruction when it appears.',
  livenessBegin: 'I am ready',
  livenessReady: 'Look straight at the camera',
  step_TURN_LEFT: 'Turn your head to your left',
  step_TURN_RIGHT: 'Turn your head to your right',
  step_BLINK: 'Blink slowly',
  step_LOOK_UP: 'Look up',
  step_LOOK_DOWN: 'Look down',
  paced_HOLD_POSE: 'Turn your head so your nose points at the dot, and hold still there',
  paced_OPEN_MOUTH: 'Face the camera and open your mouth wide',
  pacedLeft: 'to your left',
  pacedRight: 'to your right',
  pacedUp: 'and slightly up',
  pacedDown: 'and slightly down',
  pacedRestart: 'We could not follow that. The movements start again.',
  stepProgress: 'Step {i} of {n}',
  livenessRetake: 'Your face was not visible in enough of the video. Find better light and try again.',
  checkingTitle: 'Checking your identity',
  checkingHint: 'This usually takes less than a minute. Keep this page open.',
  outcome_VERIFIED: 'Thank you: your identity is verified.',
  outcome_FAILED: 'We could not verify your identity. The service that sent you will tell you what to do next.',
  outcome_EXPIRED: 'This verification link has expired. Ask the service that sent you for a new one.',
  redirecting: 'Taking you back in a few seconds.',
  continue: 'Continue',
  handoffTitle: 'Continue on your phone',
  handoffHint: 'Scan this code with your phone camera. This page follows your progress.',
  handoffWaiting: 'Waiting for your phone…',
  handoffOn_document: 'On your phone: photographing the document.',
  handoffOn_liveness: 'On your phone: following the face movements.',
  handoffOn_selfie: 'On your phone: taking the selfie.',
  handoffOn_submit: 'On your phone: sending the photos for checking.',
  progress_document: 'Document photo',
  progress_liveness: 'Face movements',
  progress_selfie: 'Selfie',
  progressState_todo: 'to do',
  progressState_current: 'in progress',
  progressState_done: 'done',
  continueHere: 'Continue on this computer',
  camera_NotAllowedError:
    'Camera access was refused. Allow the camera in your browser settings, or upload a photo instead.',
  camera_NotFoundError: 'No camera was found on this device. Upload a photo instead.',
  camera_NotReadableError: 'The camera is in use by another app. Close it and try again, or upload a photo instead.',
  camera_OverconstrainedError: 'This camera cannot take the photo we need. Upload a photo instead.',
  camera_SecurityError:
    'This page is not allowed to use the camera (it needs a secure connection). Upload a photo instead.',
  camera_unsupported: 'This browser cannot open the camera. Upload a photo instead.',
  camera_other: 'The camera could not start. Try again, or upload a photo instead.',
  livenessNeedsCamera:
    'Without the live camera, record a short video with your camera app: face the camera for a second, then make these movements in order.',
  recordVideo: 'Record a video instead',
  tryAgain: 'Try again',
  errorBusy: 'This verification is already open on another device. Finish it there, or try again in five minutes.',
  errorClosed: 'This verification is no longer open.',
  errorGeneric: 'Something went wrong on our side. Try again in a moment.',
  errorTooMany: 'Too many attempts. Ask the service that sent you for a new link.',
  progressLabel: 'Progress',
};

export type MessageKey = keyof typeof en;

const fr: Record<MessageKey, string> = {
  title: 'Vérifiez votre identité',
  introLead: "Cela prend environ deux minutes. Munissez-vous de votre pièce d'identité, dans un endroit bien éclairé.",
  introWhat:
    'Nous capturons : une photo de votre pièce, une courte vidéo de votre visage qui suit quelques mouvements, et un selfie.',
  introWhy:
    "Pourquoi : pour confirmer que la pièce est authentique et qu'elle est bien la vôtre, pour le service qui vous a envoyé ici.",
  introKept:
    'Combien de temps : les images sont supprimées dès que la vérification est décidée ; seul le résultat est conservé.',
  start: 'Commencer',
  cancel: 'Annuler',
  documentTypeTitle: 'Quelle pièce allez-vous utiliser ?',
  doc_passport: 'Passeport',
  doc_id_card: "Carte d'identité",
  doc_driving_licence: 'Permis de conduire',
  doc_residence_permit: 'Titre de séjour',
  frontTitle: 'Photographiez le recto de votre pièce',
  backTitle: 'Maintenant le verso de votre pièce',
  documentHint: 'Placez la pièce dans le cadre, à plat, les quatre coins visibles et sans reflet.',
  selfieTitle: 'Prenez un selfie',
  selfieHint:
    "Tenez le téléphone à bout de bras, toute la tête dans l'ovale, avec de l'espace autour. Regardez l'objectif, le visage dégagé, dans un endroit bien éclairé.",
  capture: 'Prendre la photo',
  retake: 'Reprendre',
  usePhoto: 'Utiliser cette photo',
  upload: 'Envoyer une photo à la place',
  previewAlt: 'La photo que vous avez prise',
  cameraLabel: 'Aperçu de la caméra',
  cameraPreparing: 'Préparation de la caméra…',
  sending: 'Envoi…',
  reason_DOCUMENT_UNREADABLE:
    "Nous n'avons pas pu lire le code en bas de la pièce. Reprenez-la avec plus de lumière, sans flou ni reflet.",
  reason_DOCUMENT_INVALID:
    "Cette pièce n'a pas passé nos contrôles. Vérifiez qu'il s'agit d'une vraie pièce d'identité et reprenez-la.",
  reason_DOCUMENT_EXPIRED: 'Cette pièce a expiré. Utilisez une pièce encore valide si vous en avez une.',
  attemptsLeft: 'Essais restants : {n}.',
  noFace: "Nous n'avons pas vu votre visage. Tenez le téléphone à hauteur des yeux, face à la lumière, et réessayez.",
  faceTooClose:
    "Votre visage est trop près de la caméra. Reculez jusqu'à ce que toute votre tête tienne dans l'ovale, avec de l'espace autour, et réessayez.",
  livenessTitle: 'Suivez les mouvements',
  livenessHint:
    "Tenez le téléphone à hauteur des yeux, tout le visage dans l'ovale. Suivez chaque consigne quand elle apparaît.",
  livenessBegin: 'Je suis prêt',
  livenessReady: "Regardez l'objectif",
  step_TURN_LEFT: 'Tournez la tête vers votre gauche',
  step_TURN_RIGHT: 'Tournez la tête vers votre droite',
  step_BLINK: 'Clignez lentement des yeux',
  step_LOOK_UP: 'Levez les yeux',
  step_LOOK_DOWN: 'Baissez les yeux',
  paced_HOLD_POSE: 'Tournez la tête pour que votre nez pointe vers le point, et restez immobile',
  paced_OPEN_MOUTH: "Regardez l'objectif et ouvrez grand la bouche",
  pacedLeft: 'vers votre gauche',
  pacedRight: 'vers votre droite',
  pacedUp: 'et un peu vers le haut',
  pacedDown: 'et un peu vers le bas',
  pacedRestart: "Nous n'avons pas pu suivre. Les mouvements recommencent.",
  stepProgress: 'Étape {i} sur {n}',
  livenessRetake: "Votre visage n'était pas assez visible dans la vidéo. Trouvez plus de lumière et réessayez.",
  checkingTitle: 'Vérification de votre identité',
  checkingHint: 'Cela prend en général moins d’une minute. Gardez cette page ouverte.',
  outcome_VERIFIED: 'Merci : votre identité est vérifiée.',
  outcome_FAILED:
    "Nous n'avons pas pu vérifier votre identité. Le service qui vous a envoyé vous dira quoi faire ensuite.",
  outcome_EXPIRED: "Ce lien de vérification a expiré. Demandez-en un nouveau au service qui vous l'a envoyé.",
  redirecting: 'Retour dans quelques secondes.',
  continue: 'Continuer',
  handoffTitle: 'Continuez sur votre téléphone',
  handoffHint: "Scannez ce code avec l'appareil photo de votre téléphone. Cette page suit votre progression.",
  handoffWaiting: 'En attente de votre téléphone…',
  handoffOn_document: 'Sur votre téléphone : photo de la pièce d’identité.',
  handoffOn_liveness: 'Sur votre téléphone : mouvements du visage.',
  handoffOn_selfie: 'Sur votre téléphone : selfie.',
  handoffOn_submit: 'Sur votre téléphone : envoi des photos pour vérification.',
  progress_document: 'Photo de la pièce',
  progress_liveness: 'Mouvements du visage',
  progress_selfie: 'Selfie',
  progressState_todo: 'à venir',
  progressState_current: 'en cours',
  progressState_done: 'terminé',
  continueHere: 'Continuer sur cet ordinateur',
  camera_NotAllowedError:
    "L'accès à la caméra a été refusé. Autorisez la caméra dans les réglages du navigateur, ou envoyez une photo.",
  camera_NotFoundError: "Aucune caméra n'a été trouvée sur cet appareil. Envoyez une photo à la place.",
  camera_NotReadableError:
    'La caméra est utilisée par une autre application. Fermez-la et réessayez, ou envoyez une photo.',
  camera_OverconstrainedError: 'Cette caméra ne peut pas prendre la photo nécessaire. Envoyez une photo à la place.',
  camera_SecurityError:
    "Cette page n'a pas le droit d'utiliser la caméra (il faut une connexion sécurisée). Envoyez une photo à la place.",
  camera_unsupported: 'Ce navigateur ne peut pas ouvrir la caméra. Envoyez une photo à la place.',
  camera_other: "La caméra n'a pas pu démarrer. Réessayez, ou envoyez une photo.",
  livenessNeedsCamera:
    "Sans la caméra en direct, enregistrez une courte vidéo avec l'application appareil photo : regardez l'objectif une seconde, puis faites ces mouvements dans l'ordre.",
  recordVideo: 'Enregistrer une vidéo à la place',
  tryAgain: 'Réessayer',
  errorBusy:
    'Cette vérification est déjà ouverte sur un autre appareil. Terminez-la là-bas, ou réessayez dans cinq minutes.',
  errorClosed: "Cette vérification n'est plus ouverte.",
  errorGeneric: 'Un problème est survenu de notre côté. Réessayez dans un instant.',
  errorTooMany: "Trop d'essais. Demandez un nouveau lien au service qui vous a envoyé.",
  progressLabel: 'Progression',
};

export type Locale = 'en' | 'fr';

const catalogues: Record<Locale, Record<MessageKey, string>> = { en, fr };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const catalogue = catalogues[locale] ?? en;
  return (key, values) => catalogue[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? ''));
}

/** For a key computed from server data (a reason, a step); unknown values fall back. */
export function isMessageKey(key: string): key is MessageKey {
  return key in en;
}
