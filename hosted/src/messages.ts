export type Locale = 'en' | 'fr';

const messages = {
  en: {
    title: 'Verify your identity',
    intro: 'You will photograph an identity document, follow a short movement challenge and take a selfie.',
    done_VERIFIED: 'This verification is complete. You can close this page.',
    done_FAILED: 'This verification has ended. Ask the service that sent you for a new link if needed.',
    done_EXPIRED: 'This link has expired. Ask the service that sent you for a new one.',
    notFound: 'This verification link is not valid.',
    needsScript: 'This page needs JavaScript to use your camera. Turn it on and reload.',
    qrLabel: 'QR code that opens this verification on your phone',
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
    done_VERIFIED: 'Cette vérification est terminée. Vous pouvez fermer cette page.',
    done_FAILED: "Cette vérification est terminée. Demandez un nouveau lien au service qui vous l'a envoyé si besoin.",
    done_EXPIRED: "Ce lien a expiré. Demandez-en un nouveau au service qui vous l'a envoyé.",
    notFound: "Ce lien de vérification n'est pas valide.",
    needsScript: 'Cette page a besoin de JavaScript pour utiliser votre caméra. Activez-le et rechargez.',
    qrLabel: 'QR code qui ouvre cette vérification sur votre téléphone',
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
