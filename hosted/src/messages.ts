export type Locale = 'en' | 'fr';

const messages = {
  en: {
    title: 'Verify your identity',
    intro: 'You will photograph an identity document, follow a short movement challenge and take a selfie.',
    desktopHandoff: 'Continue on your phone: scan this code with its camera.',
    phoneStart: 'Have your passport or ID card ready, in good light.',
    open_IN_PROGRESS: 'Your verification is in progress.',
    done_VERIFIED: 'This verification is complete. You can close this page.',
    done_FAILED: 'This verification has ended. Ask the service that sent you for a new link if needed.',
    done_EXPIRED: 'This link has expired. Ask the service that sent you for a new one.',
    notFound: 'This verification link is not valid.',
    credentialTitle: 'Identity credential',
    credentialValid: 'Valid',
    credentialInvalid: 'Not valid',
    name: 'Name',
    document: 'Document',
    validUntil: 'Valid until',
  },
  fr: {
    title: 'Vérifiez votre identité',
    intro: "Vous allez photographier une pièce d'identité, suivre un court défi de mouvement et prendre un selfie.",
    desktopHandoff: 'Continuez sur votre téléphone : scannez ce code avec son appareil photo.',
    phoneStart: "Préparez votre passeport ou votre carte d'identité, dans un endroit bien éclairé.",
    open_IN_PROGRESS: 'Votre vérification est en cours.',
    done_VERIFIED: 'Cette vérification est terminée. Vous pouvez fermer cette page.',
    done_FAILED: "Cette vérification est terminée. Demandez un nouveau lien au service qui vous l'a envoyé si besoin.",
    done_EXPIRED: "Ce lien a expiré. Demandez-en un nouveau au service qui vous l'a envoyé.",
    notFound: "Ce lien de vérification n'est pas valide.",
    credentialTitle: "Attestation d'identité",
    credentialValid: 'Valide',
    credentialInvalid: 'Non valide',
    name: 'Nom',
    document: 'Document',
    validUntil: "Valide jusqu'au",
  },
} as const;

export type MessageKey = keyof (typeof messages)['en'];

export const t = (locale: Locale, key: MessageKey): string => messages[locale][key];
