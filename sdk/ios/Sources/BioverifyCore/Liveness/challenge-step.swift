import Foundation

/// One move of the liveness challenge the server drew for the session.
public enum ChallengeStep: String, Codable, CaseIterable, Sendable {
    case turnLeft = "TURN_LEFT", turnRight = "TURN_RIGHT", blink = "BLINK", lookUp = "LOOK_UP"
    case lookDown = "LOOK_DOWN"

    /// What to show the applicant, in the session's locale (`en` or `fr`, the hosted page's wording).
    public func prompt(locale: String) -> String {
        let french = locale.lowercased().hasPrefix("fr")
        switch self {
        case .turnLeft: return french ? "Tournez la tête à gauche" : "Turn your head left"
        case .turnRight: return french ? "Tournez la tête à droite" : "Turn your head right"
        case .blink: return french ? "Clignez des yeux" : "Blink"
        case .lookUp: return french ? "Levez les yeux" : "Look up"
        case .lookDown: return french ? "Baissez les yeux" : "Look down"
        }
    }
}
